/* hawk.h -- the public C API of libhawk.
 *
 * A HawkContext owns everything: modules, diagnostics, registered passes,
 * pass managers and every string the API returns.  hawk_context_destroy
 * frees it all at once.  The library never prints and never exits: a call
 * that fails returns a failure status and appends diagnostics to the
 * context, which the caller renders (hawk_diag_render) and reports.
 *
 *   HawkContext *ctx = hawk_context_create();
 *   HawkModule *m = hawk_parse(ctx, "k.hir", text, len);
 *   if (m == NULL || hawk_verify(ctx, m) != 0) ... report diagnostics ...
 *   HawkPassManager *pm = hawk_pass_manager_create(ctx);
 *   if (hawk_pass_manager_parse(pm, "inline,cse,dce") != 0) ...
 *   if (hawk_pass_manager_run(pm, m) != 0) ...
 *   fputs(hawk_print(ctx, m, NULL), stdout);
 *   hawk_context_destroy(ctx);
 */
#ifndef HAWK_HAWK_H
#define HAWK_HAWK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HAWK_VERSION "0.1.0"

/* The library's version string, HAWK_VERSION. */
const char *hawk_version(void);

/* The sha256 (64 hex digits) of the sources this library was built from
 * (every file of lib/, include/hawk/, tools/ and cmake/, and the top
 * CMakeLists.txt; cmake/digest.cmake): it changes with anything that can
 * change what hawk writes, where the version string does not. */
const char *hawk_source_digest(void);

/* How this library was compiled, one line: the compiler and its version,
 * the build type, the flags and definitions, and hawk's CMake options
 * (LLVM, fault injection, sanitizers, coverage, fuzzing).  Two hawks of
 * one source tree built otherwise differ here. */
const char *hawk_build_config(void);

/* The index of the candidate nearest word by edit distance, when it is
 * close enough to be a typo of it (a third of its length, at least one
 * edit), else SIZE_MAX: the "did you mean" of the tools' flags and of
 * the pass options.  NULL candidates are skipped. */
size_t hawk_nearest(const char *word, const char *const *cands, size_t n);

typedef struct HawkContext HawkContext;
typedef struct HkModule HawkModule;
typedef struct HkFunc HawkFunction;
typedef struct HawkPassManager HawkPassManager;
typedef struct HawkPassRun HawkPassRun;

typedef enum { HAWK_ERROR = 0, HAWK_WARNING = 1, HAWK_NOTE = 2 } HawkSeverity;

/* ---- context ---------------------------------------------------------- */

/* When memory runs out in hawk_parse, hawk_parse_chunk, hawk_verify,
 * hawk_print, hawk_pass_manager_create, _set_option, _parse or _run,
 * hawk_kernel_report, hawk_export, hawk_export_modules or hawk_build, the
 * call fails as on bad input (NULL, or an error status) with the error
 * "out of memory" in the diagnostics, and every later such call of the
 * context fails at once: what the failed call was changing may be half
 * done.  Destroy it.  Elsewhere (the accessors, hawk_register_pass)
 * running out of memory ends the process. */
HawkContext *hawk_context_create(void);        /* NULL when out of memory */
void hawk_context_destroy(HawkContext *ctx);

/* ---- reading, checking and writing HIR -------------------------------- */

/* Parses text (len bytes, need not be NUL-terminated) named name in
 * diagnostics.  Returns NULL and appends diagnostics on any error. */
HawkModule *hawk_parse(HawkContext *ctx, const char *name, const char *text,
                       size_t len);

/* Like hawk_parse, but the first line is line_base + 1 in diagnostics: for
 * a chunk of a larger file (-split-input-file). */
HawkModule *hawk_parse_chunk(HawkContext *ctx, const char *name,
                             const char *text, size_t len, unsigned line_base);

/* Like hawk_parse_chunk, but text is not copied: the module and its
 * diagnostics point into it, so it must stay as it is until ctx is
 * destroyed.  A large input is then held once, by the caller. */
HawkModule *hawk_parse_view(HawkContext *ctx, const char *name,
                            const char *text, size_t len, unsigned line_base);

/* Like hawk_parse_view, for text that lies in a read-only private mapping
 * of a file (mmap with PROT_READ and MAP_PRIVATE), mapped until ctx is
 * destroyed: the parser gives its pages back as it passes them
 * (MADV_DONTNEED), and a later read, a diagnostic's line, maps them again
 * from the file with the same bytes.  A large input is then not held in
 * memory while its IR is built.  Text of any other memory must not be
 * given here: its pages would be lost. */
HawkModule *hawk_parse_mapped(HawkContext *ctx, const char *name,
                              const char *text, size_t len, unsigned line_base);

/* Verifies m (LangRef "Verification").  Returns 0 when it is well formed,
 * else the number of errors appended. */
int hawk_verify(HawkContext *ctx, const HawkModule *m);

/* The canonical text of m, NUL-terminated, owned by ctx; *len (if non-NULL)
 * receives its length.  NULL only when memory ran out. */
const char *hawk_print(HawkContext *ctx, const HawkModule *m, size_t *len);

/* Writes len bytes to path whole: through a temporary file beside it and
 * a rename, so a reader never sees a partly written file and a failure
 * leaves none.  Returns 0, or the errno value of the step that failed. */
int hawk_write_file(const char *path, const void *data, size_t len);

/* ---- diagnostics ------------------------------------------------------ */

size_t hawk_diag_count(const HawkContext *ctx);
size_t hawk_error_count(const HawkContext *ctx);
HawkSeverity hawk_diag_severity(const HawkContext *ctx, size_t i);
const char *hawk_diag_message(const HawkContext *ctx, size_t i);
/* The refusal rule ("budget.trips") of diagnostic i, or NULL. */
const char *hawk_diag_rule(const HawkContext *ctx, size_t i);
/* The name of the input diagnostic i points into (as given to
 * hawk_parse), or NULL when it has no place. */
const char *hawk_diag_file(const HawkContext *ctx, size_t i);
/* Line and column (1-based; 0 when the diagnostic has no location). */
unsigned hawk_diag_line(const HawkContext *ctx, size_t i);
unsigned hawk_diag_col(const HawkContext *ctx, size_t i);
/* "file:line:col: error: message\n<source line>\n<caret>\n", owned by ctx. */
const char *hawk_diag_render(HawkContext *ctx, size_t i);
void hawk_diag_clear(HawkContext *ctx);
/* "error", "warning" or "note", as diagnostics spell severity s. */
const char *hawk_severity_name(HawkSeverity s);

/* A refusal whose fix is an option of the profile ("or run with ...")
 * keeps it as data: the option's key and value ("fp-domain", "record"),
 * or NULL for both when its fix names none. */
const char *hawk_diag_fix_option(const HawkContext *ctx, size_t i);
const char *hawk_diag_fix_value(const HawkContext *ctx, size_t i);

/* How a message spells an option of the profile for the caller who will
 * read it: as the C API takes it (HAWK_OPTION_KEY, the default:
 * fp-domain=record), as hawk's tools take it (HAWK_OPTION_FLAG:
 * -fp-domain=record), or as a Python keyword argument (HAWK_OPTION_PYTHON:
 * fp_domain='record').  For the messages made after the call. */
typedef enum {
    HAWK_OPTION_KEY,
    HAWK_OPTION_FLAG,
    HAWK_OPTION_PYTHON
} HawkOptionStyle;
void hawk_set_option_style(HawkContext *ctx, HawkOptionStyle style);

/* What becomes of a warning (a mistake the analyses prove, which the
 * contract still builds: an index outside its extent, a divisor that is
 * always 0): a warning (HAWK_WARNINGS_ON, the default), nothing
 * (HAWK_WARNINGS_OFF), or an error that fails the pass that found it
 * (HAWK_WARNINGS_AS_ERRORS), so an export writes nothing.  The tools'
 * -w and -Werror. */
typedef enum {
    HAWK_WARNINGS_ON,
    HAWK_WARNINGS_OFF,
    HAWK_WARNINGS_AS_ERRORS
} HawkWarnings;
void hawk_set_warnings(HawkContext *ctx, HawkWarnings w);

/* ---- looking at a module (for passes written outside the library) ----- */

size_t hawk_module_function_count(const HawkModule *m);
HawkFunction *hawk_module_function(HawkModule *m, size_t i);
const char *hawk_function_name(const HawkFunction *fn);
int hawk_function_is_kernel(const HawkFunction *fn);

/* Calls visit once per instruction of fn, nested regions included, in
 * walk order; a non-zero return stops the walk and is returned. */
typedef int (*HawkInstVisitor)(void *user, const char *mnemonic,
                               unsigned line, unsigned col);
int hawk_function_walk(const HawkFunction *fn, HawkInstVisitor visit,
                       void *user);

/* ---- passes ----------------------------------------------------------- */

typedef enum { HAWK_PASS_ANALYSIS = 0, HAWK_PASS_TRANSFORM = 1 } HawkPassKind;

/* A pass runs on one function at a time.  It returns 0 on success; on
 * failure it reports why with hawk_pass_error and returns non-zero, which
 * stops the pipeline. */
typedef int (*HawkPassFn)(HawkPassRun *run, HawkFunction *fn);

/* Registers a pass under name (letters, digits and '-') in ctx, beside the
 * built-in ones.  A transform invalidates every cached analysis of the
 * function it runs on.  Returns 0, or -1 when the name is taken. */
int hawk_register_pass(HawkContext *ctx, const char *name,
                       const char *summary, HawkPassKind kind, HawkPassFn fn,
                       void *user);

HawkContext *hawk_pass_context(const HawkPassRun *run);
void *hawk_pass_user(const HawkPassRun *run);
/* The value of option key in the pipeline's name{key=value} text, or NULL. */
const char *hawk_pass_option(const HawkPassRun *run, const char *key);
/* Appends an error about fn, at its definition, naming the pass. */
void hawk_pass_error(HawkPassRun *run, const HawkFunction *fn,
                     const char *message);

/* The registered passes, built-in first, in registration order. */
size_t hawk_pass_count(const HawkContext *ctx);
const char *hawk_pass_name(const HawkContext *ctx, size_t i);
const char *hawk_pass_summary(const HawkContext *ctx, size_t i);
HawkPassKind hawk_pass_kind(const HawkContext *ctx, size_t i);
/* The options pass i takes in name{key=value}, as "key=VALUES" words
 * ("max-trips=N fp-domain=record|refuse ..."); "" when it takes none, "*"
 * for a pass of the C API (it reads its own).  A built-in pass refuses any
 * other key, and a value outside its kind, when the pipeline is parsed. */
const char *hawk_pass_options(const HawkContext *ctx, size_t i);

/* ---- pass manager ----------------------------------------------------- */

HawkPassManager *hawk_pass_manager_create(HawkContext *ctx); /* ctx owns it */

/* Parses "a,b{key=value},c" and appends the passes.  Returns 0, or non-zero
 * with a diagnostic naming the unknown pass or malformed text. */
int hawk_pass_manager_parse(HawkPassManager *pm, const char *pipeline);

/* A pipeline-wide option every pass sees when its own name{key=value} text
 * does not set key (hawk-opt's profile flags: max-trips, fp-domain, ...).
 * An option of the built-in passes (hawk_pass_options) must have a valid
 * value, whether or not a pass of the pipeline reads it; any other key is
 * taken only by a pipeline that holds a pass of the C API (which reads its
 * own).  hawk_pass_manager_run fails first otherwise. */
void hawk_pass_manager_set_option(HawkPassManager *pm, const char *key,
                                  const char *value);

/* Verify the module after every pass (on by default). */
void hawk_pass_manager_set_verify_each(HawkPassManager *pm, int on);

/* Runs the pipeline over every function of m.  Returns 0, or non-zero when
 * a pass failed or the module no longer verifies (diagnostics say which). */
int hawk_pass_manager_run(HawkPassManager *pm, HawkModule *m);

/* Instrumentation: after_pass is called after each pass with its name. */
typedef void (*HawkAfterPassFn)(void *user, const char *pass,
                                const HawkModule *m);
void hawk_pass_manager_set_after_pass(HawkPassManager *pm,
                                      HawkAfterPassFn fn, void *user);

/* The text the print<name> entries of the last run rendered ("" if none),
 * NUL-terminated, owned by the context; *len (if non-NULL) its length. */
const char *hawk_pass_manager_output(const HawkPassManager *pm, size_t *len);

/* Seconds spent in each pass of the last run, by position in the pipeline. */
size_t hawk_pass_manager_size(const HawkPassManager *pm);
const char *hawk_pass_manager_pass_name(const HawkPassManager *pm, size_t i);
double hawk_pass_manager_seconds(const HawkPassManager *pm, size_t i);

/* ---- the embedded C target's analysis report -------------------------- */

/* The JSON report of kernel fn (docs/EmbeddedC.md, "The report"): indented,
 * keys in the report's order, NUL-terminated, owned by the context; *len
 * (if non-NULL) receives its length.  The analyses the last run of pm left
 * valid are reused, the others computed under pm's pipeline-wide options
 * (the profile).  NULL with diagnostics when fn is a func, the profile is
 * malformed, or a verify pass refuses the kernel. */
const char *hawk_kernel_report(HawkPassManager *pm, HawkFunction *fn,
                               size_t *len);

#ifdef __cplusplus
}
#endif

#endif
