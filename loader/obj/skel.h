/* SPDX-License-Identifier: MIT */
/*
 * An object's names as the build saw them: scripts/bbskel.c writes
 * $(O)/gen/NAME.skel.h for each embedded object, with an enum of its
 * load-time constants and one of its maps, and NAME_skel, the names in
 * that order. Code names a constant or a map by its enum, so that a
 * misspelt or removed name fails the build, not the run; these calls check
 * the rest at run time: that obj was bound to that skel, that the id is in
 * range, that the map was created.
 */
#ifndef BAREBPF_SKEL_H
#define BAREBPF_SKEL_H

#include <stdint.h>

struct bb_obj;
struct bb_map;
struct bb_err;

struct bb_skel {
	const char *name;
	const char *const *consts; /* nconsts names */
	const char *const *maps;   /* nmaps names */
	int nconsts, nmaps;
};

/*
 * Check that obj has every constant and map that s names (an object out
 * of step with the header it was built with: -ENOENT naming the first
 * missing) and bind it to s: obj_skel_* then take s's ids.
 */
int obj_skel_bind(struct bb_obj *obj, const struct bb_skel *s,
		  struct bb_err *err);
/* Set constant id of s: -EINVAL if obj is not bound to s or id is out of
 * range, else what obj_set_const says. */
int obj_skel_set(struct bb_obj *obj, const struct bb_skel *s, int id,
		 uint64_t value);
/* Map id of s in *m (its definition may be changed before obj_load): 0,
 * or -EINVAL as obj_skel_set. */
int obj_skel_map(struct bb_obj *obj, const struct bb_skel *s, int id,
		 struct bb_map **m);
/* The fd of map id of s: -EINVAL as obj_skel_set, -EBADF if the map was
 * not created (before obj_load, or left out by it). */
int obj_skel_map_fd(struct bb_obj *obj, const struct bb_skel *s, int id);

#endif
