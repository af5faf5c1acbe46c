/*
 * jet-tests NAME   run one test (CTest calls it so, one process per test)
 * jet-tests --list [PREFIX]   print test names
 */
#include <string.h>

#include "test.h"

#define JET_TEST_ENTRY(n) int test_##n(void);
#include "test_list.h"
#undef JET_TEST_ENTRY

static const struct {
  const char *name;
  int (*fn)(void);
} tests[] = {
#define JET_TEST_ENTRY(n) {#n, test_##n},
#include "test_list.h"
#undef JET_TEST_ENTRY
    {NULL, NULL}};

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    const char *prefix = argc >= 3 ? argv[2] : "";
    for (int i = 0; tests[i].name; i++)
      if (strncmp(tests[i].name, prefix, strlen(prefix)) == 0) printf("%s\n", tests[i].name);
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: %s NAME | --list [PREFIX]\n", argv[0]);
    return 2;
  }
  for (int i = 0; tests[i].name; i++)
    if (strcmp(tests[i].name, argv[1]) == 0) {
      int rc = tests[i].fn();
      fprintf(stderr, "%s: %s\n", tests[i].name,
              rc == 0 ? "passed" : rc == TEST_SKIP ? "skipped" : "FAILED");
      return rc;
    }
  fprintf(stderr, "no test named %s\n", argv[1]);
  return 2;
}
