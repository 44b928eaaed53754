/* SPDX-License-Identifier: MIT */
#include "tool.h"
static int opensnoop_main(int argc, char **argv) { (void)argc; (void)argv; return 1; }
const struct tool tool_opensnoop = {
	"opensnoop", opensnoop_main,
	"stub"
};
