#ifndef FANOUT_BUILD_INFO_H
#define FANOUT_BUILD_INFO_H

/// The version in the repository's VERSION file, as read when this target was compiled (with its newline).
const char *fanout_build_version(void);

/// The commit `make dist` built (`git rev-parse --short HEAD`), or "unknown" for a build without the Makefile.
const char *fanout_build_commit(void);

#endif
