#include "../bbtest_main.h"
