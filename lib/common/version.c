#include "internal.h"

#define JET__STR2(x) #x
#define JET__STR(x) JET__STR2(x)

unsigned jet_version(void) { return JET_VERSION_NUMBER; }

const char *jet_version_string(void) {
  return JET__STR(JET_VERSION_MAJOR) "." JET__STR(JET_VERSION_MINOR) "." JET__STR(JET_VERSION_PATCH);
}
