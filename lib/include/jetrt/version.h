/*
 * jetrt/version.h - library version.
 */
#ifndef JETRT_VERSION_H
#define JETRT_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define JET_VERSION_MAJOR 0
#define JET_VERSION_MINOR 1
#define JET_VERSION_PATCH 0
/** Version as one number: major * 10000 + minor * 100 + patch. */
#define JET_VERSION_NUMBER (JET_VERSION_MAJOR * 10000 + JET_VERSION_MINOR * 100 + JET_VERSION_PATCH)

/**
 * jet_version - version of the library actually linked, as JET_VERSION_NUMBER.
 * Compare with JET_VERSION_NUMBER to detect a header/library mismatch.
 * Thread safety: safe from any thread.
 */
unsigned jet_version(void);

/**
 * jet_version_string - the version as "major.minor.patch".
 * @return a static string. Thread safety: safe from any thread.
 */
const char *jet_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* JETRT_VERSION_H */
