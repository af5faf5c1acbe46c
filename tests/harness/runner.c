/*
 * jet-tests NAME   run one test (CTest calls it so, one process per test)
 * jet-tests --list [PREFIX]   print test names
 * jet-tests --child ROLE FD   run a child role (jt_spawn_child) on socket FD
 */
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

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

#define JET_CHILD_ENTRY(n) int child_##n(int sock);
#include "child_list.h"
#undef JET_CHILD_ENTRY

static const struct {
  const char *name;
  int (*fn)(int sock);
} children[] = {
#define JET_CHILD_ENTRY(n) {#n, child_##n},
#include "child_list.h"
#undef JET_CHILD_ENTRY
    {NULL, NULL}};

static int run_child(const char *role, const char *fdarg) {
  char *end = NULL;
  long fd = strtol(fdarg, &end, 10);
  if (!end || *end || fd < 0 || fd > 1 << 20) {
    fprintf(stderr, "--child %s: bad descriptor \"%s\"\n", role, fdarg);
    return 2;
  }
  /* A child outlives a failed test only to hang it: it goes with its parent. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 1;
  for (int i = 0; children[i].name; i++)
    if (strcmp(children[i].name, role) == 0) {
      int rc = children[i].fn((int)fd);
      fprintf(stderr, "child %s: %s\n", role, rc == 0 ? "passed" : "FAILED");
      return rc;
    }
  fprintf(stderr, "no child role named %s\n", role);
  return 2;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    const char *prefix = argc >= 3 ? argv[2] : "";
    for (int i = 0; tests[i].name; i++)
      if (strncmp(tests[i].name, prefix, strlen(prefix)) == 0) printf("%s\n", tests[i].name);
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "--child") == 0) return run_child(argv[2], argv[3]);
  if (argc != 2) {
    fprintf(stderr, "usage: %s NAME | --list [PREFIX] | --child ROLE FD\n", argv[0]);
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
