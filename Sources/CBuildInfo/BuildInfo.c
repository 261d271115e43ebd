#include "BuildInfo.h"

// make dist writes this header into its own scratch folder and puts that folder on the include path, so that a
// plain `swift build` needs no generated file and no flag, and a new commit recompiles this file alone.
#if __has_include(<FanoutBuildCommit.h>)
#include <FanoutBuildCommit.h>
#else
#define FANOUT_BUILD_COMMIT "unknown"
#endif

// #embed (C23, an extension in Clang's default C mode) reads VERSION at compile time, so that the Makefile, the
// GitHub Action and the binary share that one file.
#pragma clang diagnostic ignored "-Wc23-extensions"
static const char version[] = {
#embed "../../VERSION"
    , 0,
};

const char *fanout_build_version(void) { return version; }

const char *fanout_build_commit(void) { return FANOUT_BUILD_COMMIT; }
