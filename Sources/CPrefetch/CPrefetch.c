// The module is the header's one inline function; SwiftPM needs a source file to build a C target.
#include "CPrefetch.h"
