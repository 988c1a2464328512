/* emit.h -- exporting kernels through a target of the targets table: the
 * library call behind hawk-emit (docs/EmbeddedC.md, "The export").
 *
 *   HawkExportOptions o;
 *   hawk_export_options_init(&o);
 *   o.out_dir = "out";
 *   if (hawk_export(ctx, m, &o) != 0) ... report diagnostics ...
 *
 * For each kernel: lower (inline, the verify analyses, scalarize, cse,
 * dce), write the .c and .h texts, audit them, write them whole, run the
 * toolchain checks, write the report <name>.embedded.json whole.  A kernel
 * that is refused (by a verify pass or the audit) writes nothing; a failing
 * check leaves the .c and .h for inspection and writes no report.
 */
#ifndef HAWK_HAWK_EMIT_H
#define HAWK_HAWK_EMIT_H

#include <stddef.h>

#include "hawk/hawk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One exported kernel, as hawk_export hands it to on_unit.  Strings are
 * owned by the context. */
typedef struct {
    const char *kernel;            /* "drag" */
    const char *c_name, *h_name;   /* file names: "drag.c", "drag.h" */
    const char *report_name;       /* "drag.embedded.json" */
    const char *c_text, *h_text;   /* the unit's texts; for a row built
                                      by the LLVMWriter c_name/c_text are
                                      the .ll (text NULL unless emitted or
                                      printed), h_name the object (h_text
                                      NULL) and report_name NULL */
    const char *report_text;       /* NULL under print_only */
    const char *const *cflags;     /* C rows: the compiler flags the unit's
                                      bit identity needs with gcc and clang
                                      (-ffp-contract=off, -fno-builtin-<f>),
                                      as its file comment names them */
    size_t ncflags;
    double hawk_seconds;           /* lowering, writing, audit, files */
    double check_seconds;          /* the external checks (0 without) */
} HawkExportUnit;

typedef void (*HawkExportFn)(void *user, const HawkExportUnit *unit);

/* A writer that lives outside libhawk: the LLVMWriter of the host row is
 * in hawk-llvm (lib/Host, hk_host_writer()), which libhawk does not link.
 * The export dispatches on the row's writer. */
typedef struct HawkUnitWriter HawkUnitWriter;

/* What runs the toolchain checks of a C unit (the C compiler, cppcheck):
 * lib/Driver's (hawk-driver, hk_driver_checker()), which libhawk does not
 * link, since it starts processes and reads the environment. */
typedef struct HawkUnitChecker HawkUnitChecker;

/* What computes the known answers of a C unit's self-test (profile
 * selftest=on, docs/EmbeddedC.md, "The self-test"): the host build run
 * in memory, hawk-llvm's hawk_host_oracle(), which libhawk does not
 * link; or libhawk's own HIR interpreter, hawk_interp_oracle(), for a
 * program built without LLVM. */
typedef struct HawkUnitOracle HawkUnitOracle;

/* The HIR interpreter (lib/Interp) as HawkExportOptions.oracle: the
 * known answers are the kernel as verified, evaluated by LangRef's
 * semantics without the lowering the unit is written from, bit-identical
 * to the host build's wherever hawk-run's three rows agree;
 * static, never NULL. */
const HawkUnitOracle *hawk_interp_oracle(void);

typedef struct {
    const char *target;     /* a target id; NULL: the default row */
    const char *out_dir;    /* NULL: "."; created (with its parents) when
                               missing */
    const char *kernel;     /* one kernel by name; NULL: every kernel */
    /* The profile (docs/EmbeddedC.md, "The profile"): nopts pairs
     * opt_keys[i] = opt_vals[i], e.g. "max-trips" = "32". */
    const char *const *opt_keys;
    const char *const *opt_vals;
    size_t nopts;
    int check;              /* run the toolchain checks (default 1)
                               through checker */
    const HawkUnitChecker *checker; /* NULL: checks asked for are an
                               error (this program links no checker) */
    int print_only;         /* lower, write and audit the texts, hand them
                               to on_unit; write no file, run no check */
    HawkExportFn on_unit;   /* called once per kernel exported, in module
                               order; may be NULL */
    HawkExportFn on_runtime; /* C rows: called once after the units with
                               the runtime unit of the output directory
                               (docs/EmbeddedC.md, "The runtime unit"):
                               kernel and report NULL; under
                               print_only the runtime of the printed units
                               alone.  May be NULL */
    void *user;
    /* A row whose writer is the LLVMWriter (host) writes <name><artifact>
     * (the object) through llvm_writer, and <name><source> (the textual
     * IR) too under emit_llvm; it has no .h, checks or report.  Without
     * llvm_writer such a row is refused. */
    const HawkUnitWriter *llvm_writer;
    int emit_llvm;
    /* selftest=on: what computes the known answers (hawk_host_oracle(),
     * hawk_interp_oracle()); NULL refuses such a profile */
    const HawkUnitOracle *oracle;
} HawkExportOptions;

/* The defaults: the default target, ".", every kernel, the default
 * profile, checks on. */
void hawk_export_options_init(HawkExportOptions *opts);

/* Exports the kernels of m (parsed and verified) under opts.  Every
 * selected kernel is lowered, written and audited first; when any is
 * refused nothing is written.  Returns 0, or -1 with diagnostics in ctx
 * (an unknown target or kernel, a refusal, an audit hit, a file that
 * cannot be written, a failing check). */
int hawk_export(HawkContext *ctx, HawkModule *m, const HawkExportOptions *opts);

/* Exports the kernels of the nms modules ms (each parsed in ctx and
 * verified) as one export: into one directory, with one runtime unit and
 * one cppcheck run over every unit (hawk_export is this with one module).
 * Two kernels of one name are refused; so is any refusal in any module,
 * before a file is written. */
int hawk_export_modules(HawkContext *ctx, HawkModule *const *ms, size_t nms,
                        const HawkExportOptions *opts);

/* The entry symbol of kernel under target (NULL: the default row), as the
 * target's row spells it ("drag_c"); NULL for an unknown target.  Owned by
 * ctx.  Entries linked into one build must differ in their first 31
 * characters (MISRA C:2012 Rule 5.1): hawk_export refuses kernels of one
 * module whose entries do not, and hawk-emit kernels of several inputs. */
const char *hawk_export_entry(HawkContext *ctx, const char *target,
                              const char *kernel);

#ifdef __cplusplus
}
#endif

#endif
