/* report.h -- the JSON report of a kernel (docs/EmbeddedC.md, "The
 * report"): the analyses' results under the contract's REPORT_KEYS, in that
 * order.  The verify analyses fill what they know; the C target adds the
 * digests, helpers, core, deviations, audit and checks later and puts the
 * keys back in order with hk_report_sort. */
#ifndef HAWK_REPORT_H
#define HAWK_REPORT_H

#include <cjson/cJSON.h>

#include "checks.h"
#include "cunit.h"
#include "embedded.h"

/* The numerics core's version, the header's and the report's
 * core_version. */
#define HK_CORE_VERSION "hawk-core/1"

/* key: v as an exact integer (raw digits: above 2^53 too). */
void hk_json_add_int(cJSON *o, const char *key, int64_t v);
/* key: s, or null for NULL. */
void hk_json_add_str(cJSON *o, const char *key, const char *s);
/* a / b to two decimals, rounded half up in integers ("2.14"), or NULL
 * when a figure is missing (negative) or b is 0. */
const char *hk_ratio_text(HkArena *arena, int64_t a, int64_t b);
/* The same into buf (HK_RATIO_CHARS bytes, no arena): buf, or NULL. */
#define HK_RATIO_CHARS 48
const char *hk_ratio_format(char *buf, int64_t a, int64_t b);

/* A cJSON tree is malloc'd, outside the arena, so running out of memory in
 * the arena while a tree is built or printed would leak it.  A builder
 * that allocates in the arena fills a root it was handed, adding every
 * node to its parent before filling it; hk_json_fill runs it with the
 * root deleted if memory runs out (then it unwinds on), and hk_json_print
 * turns a root it takes over into text in the arena. */
void hk_json_fill(HkArena *a, cJSON *root,
                  void (*fill)(cJSON *root, const void *ud), const void *ud);
/* root's indented text followed by suffix, in a; root is deleted. */
const char *hk_json_print(HkArena *a, cJSON *root, const char *suffix);

/* The contract's REPORT_KEYS: every top-level key of a report, in order. */
#define HK_REPORT_NKEYS 28
extern const char *const hk_report_keys[HK_REPORT_NKEYS];

/* The report of kernel f under profile p, with every key the analyses
 * know (kernel ... unsupported_checked, without walk_digest, source_digest
 * and the keys of the emitted unit), computing the analyses r's context
 * has not cached.  The caller owns the result (cJSON_Delete).  NULL when
 * an analysis failed or refused: its diagnostics say why. */
cJSON *hk_report_analysis(HawkPassRun *r, HkFunc *f, const HkProfile *p);

/* Reorders report's top-level items into hk_report_keys order; keys that
 * are not report keys keep their order after them. */
void hk_report_sort(cJSON *report);

/* The whole report of an emitted unit: the analyses l took before
 * scalarize, the digests, the unit's helpers and core functions, the
 * deviations (with the float-equality and defined_where_cpp_is_ub notes
 * when they have sites), an empty audit and the checks as run; keys in
 * hk_report_keys order.  The caller owns the result (cJSON_Delete). */
cJSON *hk_report_unit(const HkLowered *l, const HkCUnit *u,
                      const HkChecks *checks);

#endif
