/* SPDX-License-Identifier: MIT */
/* placeholder until net1's discovery merges */
#include "mods.h"

int sockoff_register(struct bb_fieldoff *fo)
{
	(void)fo;
	return 0;
}
