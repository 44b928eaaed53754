/* Integration tests need root: bbtest_main.h fails a run without it. */
#define BBTEST_NEEDS_ROOT
#include "../bbtest_main.h"
