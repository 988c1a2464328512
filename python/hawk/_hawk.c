/* _hawk.c -- the CPython binding of libhawk and libhawk-rt: the module
 * hawk._hawk, which the package hawk (python/hawk) wraps.
 *
 * Every door takes HIR text and parses it in a context of its own, so a
 * Python object holds text, the IR's one contract, and no C pointer into
 * a context that might be gone.  Diagnostics come back as tuples (file,
 * line, col, severity, message, rule, fix_option, fix_value, rendered):
 * errors in the exception the package registers (set_error), warnings
 * beside the result.  A loaded build (load) is a capsule around a
 * HawkRt; launch fills an args struct from buffers without a copy and
 * runs hawk_launch with the GIL released.  Why an extension and not
 * ctypes: the launch path must check and pin buffers and drop the GIL at
 * a cost of a few microseconds per call, and the doors hand C callbacks
 * (on_unit) to the library. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "hawk/build.h"
#include "hawk/driver.h"
#include "hawk/emit.h"
#include "hawk/hawk.h"
#include "hawk/host.h"
#include "hawk/rt.h"

static PyObject *error_class; /* hawk.HawkError, set by the package */

/* ---- diagnostics ---------------------------------------------------------- */

static PyObject *str_or_none(const char *s)
{
    if (s == NULL)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* Diagnostic i of ctx as a tuple. */
static PyObject *diag_tuple(HawkContext *ctx, size_t i)
{
    return Py_BuildValue(
        "(NIIsNNNNN)", str_or_none(hawk_diag_file(ctx, i)),
        hawk_diag_line(ctx, i), hawk_diag_col(ctx, i),
        hawk_severity_name(hawk_diag_severity(ctx, i)),
        str_or_none(hawk_diag_message(ctx, i)),
        str_or_none(hawk_diag_rule(ctx, i)),
        str_or_none(hawk_diag_fix_option(ctx, i)),
        str_or_none(hawk_diag_fix_value(ctx, i)),
        str_or_none(hawk_diag_render(ctx, i)));
}

/* The diagnostics of ctx from index from, of severity sev (or any when
 * sev is -1), as a list. */
static PyObject *diag_list(HawkContext *ctx, size_t from, int sev)
{
    PyObject *l = PyList_New(0);
    for (size_t i = from; l != NULL && i < hawk_diag_count(ctx); i++) {
        if (sev >= 0 && (int)hawk_diag_severity(ctx, i) != sev)
            continue;
        PyObject *t = diag_tuple(ctx, i);
        if (t == NULL || PyList_Append(l, t) != 0) {
            Py_XDECREF(t);
            Py_CLEAR(l);
        }
        Py_XDECREF(t);
    }
    return l;
}

/* Raises the package's error with every diagnostic of ctx; NULL. */
static PyObject *raise_diags(HawkContext *ctx, const char *what)
{
    PyObject *diags = diag_list(ctx, 0, -1);
    if (diags == NULL)
        return NULL;
    PyObject *cls = error_class != NULL ? error_class : PyExc_RuntimeError;
    PyObject *exc = PyObject_CallFunction(cls, "sN", what, diags);
    if (exc != NULL) {
        PyErr_SetObject(cls, exc);
        Py_DECREF(exc);
    }
    return NULL;
}

/* A context for one call, its messages spelt for Python callers. */
static HawkContext *context(int warnings)
{
    HawkContext *ctx = hawk_context_create();
    if (ctx == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    hawk_set_option_style(ctx, HAWK_OPTION_PYTHON);
    hawk_set_warnings(ctx, (HawkWarnings)warnings);
    return ctx;
}

/* (result, warnings): what every door returns. */
static PyObject *with_warnings(HawkContext *ctx, PyObject *result)
{
    if (result == NULL)
        return NULL;
    PyObject *w = diag_list(ctx, 0, HAWK_WARNING);
    if (w == NULL) {
        Py_DECREF(result);
        return NULL;
    }
    return Py_BuildValue("(NN)", result, w);
}

/* The end of a door: after a failure (rc 1) the diagnostics raised,
 * after a success (rc 0) (value, warnings); NULL when a Python error is
 * set.  Takes value's reference. */
static PyObject *door_result(HawkContext *ctx, int rc, const char *what,
                             PyObject *value)
{
    if (rc == 0 && !PyErr_Occurred())
        return with_warnings(ctx, value);
    Py_XDECREF(value);
    if (rc == 1 && !PyErr_Occurred())
        raise_diags(ctx, what);
    return NULL;
}

/* ---- texts ---------------------------------------------------------------- */

typedef struct {
    HawkModule **ms;
    size_t n;
} Modules;

/* Parses and verifies each (name, text) of seq into ctx; 0, or -1 with
 * diagnostics in ctx (or a Python error set). */
static int parse_all(HawkContext *ctx, PyObject *seq, Modules *out)
{
    PyObject *fast = PySequence_Fast(seq, "units must be a sequence of (name, text)");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    out->ms = PyMem_Calloc((size_t)(n ? n : 1), sizeof *out->ms);
    out->n = 0;
    int rc = out->ms == NULL ? (PyErr_NoMemory(), -1) : 0;
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++) {
        const char *name, *text;
        Py_ssize_t len;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ss#", &name,
                              &text, &len)) {
            rc = -1;
            break;
        }
        HawkModule *m = hawk_parse(ctx, name, text, (size_t)len);
        if (m == NULL || hawk_verify(ctx, m) != 0)
            rc = 1;
        else
            out->ms[out->n++] = m;
    }
    Py_DECREF(fast);
    return rc;
}

/* The functions of m as a list of (name, is_kernel). */
static PyObject *function_list(HawkModule *m)
{
    PyObject *l = PyList_New(0);
    for (size_t k = 0; l != NULL && k < hawk_module_function_count(m); k++) {
        HawkFunction *f = hawk_module_function(m, k);
        PyObject *t = Py_BuildValue("(sO)", hawk_function_name(f),
                                    hawk_function_is_kernel(f) ? Py_True : Py_False);
        if (t == NULL || PyList_Append(l, t) != 0)
            Py_CLEAR(l);
        Py_XDECREF(t);
    }
    return l;
}

/* check(name, text, warnings) -> ((canonical text, functions), warnings) */
static PyObject *py_check(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name, *text;
    Py_ssize_t len;
    int warnings;
    if (!PyArg_ParseTuple(args, "ss#i", &name, &text, &len, &warnings))
        return NULL;
    HawkContext *ctx = context(warnings);
    if (ctx == NULL)
        return NULL;
    PyObject *res = NULL;
    HawkModule *m = hawk_parse(ctx, name, text, (size_t)len);
    if (m == NULL || hawk_verify(ctx, m) != 0) {
        raise_diags(ctx, "the HIR does not verify");
    } else {
        size_t n = 0;
        const char *printed = hawk_print(ctx, m, &n);
        res = with_warnings(ctx, Py_BuildValue("(s#N)", printed, (Py_ssize_t)n,
                                               function_list(m)));
    }
    hawk_context_destroy(ctx);
    return res;
}

/* Sets each (key, value) of the sequence opts on pm; 0 or -1. */
static int set_options(HawkPassManager *pm, PyObject *opts)
{
    PyObject *fast = PySequence_Fast(opts, "options must be (key, value) pairs");
    if (fast == NULL)
        return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(fast); i++) {
        const char *k, *v;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ss", &k, &v))
            rc = -1;
        else
            hawk_pass_manager_set_option(pm, k, v);
    }
    Py_DECREF(fast);
    return rc;
}

/* Each kernel's report after pm ran over m: {name: JSON text}. */
static PyObject *reports_of(HawkPassManager *pm, HawkModule *m)
{
    PyObject *d = PyDict_New();
    for (size_t k = 0; d != NULL && k < hawk_module_function_count(m); k++) {
        HawkFunction *f = hawk_module_function(m, k);
        if (!hawk_function_is_kernel(f))
            continue;
        size_t n = 0;
        const char *r = hawk_kernel_report(pm, f, &n);
        PyObject *t = r ? PyUnicode_FromStringAndSize(r, (Py_ssize_t)n) : NULL;
        if (t == NULL || PyDict_SetItemString(d, hawk_function_name(f), t) != 0)
            Py_CLEAR(d);
        Py_XDECREF(t);
    }
    return d;
}

/* run(name, text, pipeline, options, warnings, reports)
 *   -> ((text after, functions, printed analyses, {kernel: report} or
 *        None), warnings) */
static PyObject *py_run(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name, *text, *pipeline;
    Py_ssize_t len;
    PyObject *opts;
    int warnings, reports;
    if (!PyArg_ParseTuple(args, "ss#sOip", &name, &text, &len, &pipeline, &opts,
                          &warnings, &reports))
        return NULL;
    HawkContext *ctx = context(warnings);
    if (ctx == NULL)
        return NULL;
    PyObject *res = NULL;
    HawkModule *m = hawk_parse(ctx, name, text, (size_t)len);
    HawkPassManager *pm = NULL;
    if (m == NULL || hawk_verify(ctx, m) != 0) {
        raise_diags(ctx, "the HIR does not verify");
    } else if ((pm = hawk_pass_manager_create(ctx)) == NULL) {
        PyErr_NoMemory();
    } else if (set_options(pm, opts) == 0) {
        if (hawk_pass_manager_parse(pm, pipeline) != 0 ||
            hawk_pass_manager_run(pm, m) != 0) {
            raise_diags(ctx, "the pipeline failed");
        } else {
            size_t n = 0, on = 0;
            const char *printed = hawk_print(ctx, m, &n);
            const char *out = hawk_pass_manager_output(pm, &on);
            PyObject *reps = reports ? reports_of(pm, m) : Py_NewRef(Py_None);
            if (reps == NULL && hawk_error_count(ctx) > 0)
                raise_diags(ctx, "no report");
            else if (reps != NULL)
                res = with_warnings(ctx, Py_BuildValue(
                    "(s#Ns#N)", printed, (Py_ssize_t)n, function_list(m),
                    out ? out : "", (Py_ssize_t)on, reps));
        }
    }
    hawk_context_destroy(ctx);
    return res;
}

/* ---- export and build ------------------------------------------------------ */

/* Fills keys/vals from the sequence of (key, value) pairs opts; the
 * strings stay owned by the sequence, which the caller holds. */
typedef struct {
    const char **keys, **vals;
    size_t n;
    PyObject *fast;
} Pairs;

static int pairs_of(PyObject *opts, Pairs *p)
{
    memset(p, 0, sizeof *p);
    p->fast = PySequence_Fast(opts, "options must be (key, value) pairs");
    if (p->fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(p->fast);
    p->keys = PyMem_Calloc((size_t)(n ? n : 1), sizeof *p->keys);
    p->vals = PyMem_Calloc((size_t)(n ? n : 1), sizeof *p->vals);
    if (p->keys == NULL || p->vals == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(p->fast, i), "ss",
                              &p->keys[i], &p->vals[i]))
            return -1;
        p->n++;
    }
    return 0;
}

static void pairs_free(Pairs *p)
{
    PyMem_Free(p->keys);
    PyMem_Free(p->vals);
    Py_XDECREF(p->fast);
}

/* on_unit: one (kernel, c, h, report) tuple of file names per unit. */
static void collect_unit(void *user, const HawkExportUnit *u)
{
    PyObject *l = user;
    if (PyErr_Occurred())
        return;
    PyObject *t = Py_BuildValue("(szzz)", u->kernel, u->c_name, u->h_name,
                                u->report_name);
    if (t != NULL)
        PyList_Append(l, t);
    Py_XDECREF(t);
}

/* export(units, out_dir, target, kernel, options, check, warnings)
 *   -> ([(kernel, c, h, report)], warnings) */
static PyObject *py_export(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *units, *opts;
    const char *out_dir, *target, *kernel;
    int check, warnings;
    if (!PyArg_ParseTuple(args, "OszzOpi", &units, &out_dir, &target, &kernel,
                          &opts, &check, &warnings))
        return NULL;
    HawkContext *ctx = context(warnings);
    if (ctx == NULL)
        return NULL;
    Modules ms = {0};
    Pairs p = {0};
    PyObject *made = PyList_New(0), *res = NULL;
    int rc = made == NULL ? -1 : pairs_of(opts, &p);
    if (rc == 0)
        rc = parse_all(ctx, units, &ms);
    if (rc == 0) {
        HawkExportOptions o;
        hawk_export_options_init(&o);
        o.out_dir = out_dir;
        o.target = target;
        o.kernel = kernel;
        o.opt_keys = p.keys;
        o.opt_vals = p.vals;
        o.nopts = p.n;
        o.check = check;
        o.checker = check ? hawk_driver_checker_cached(ctx, NULL) : NULL;
        o.llvm_writer = hawk_host_writer();
        o.oracle = hawk_host_oracle();
        o.on_unit = collect_unit;
        o.user = made;
        rc = hawk_export_modules(ctx, ms.ms, ms.n, &o) != 0 ? 1 : 0;
    }
    res = door_result(ctx, rc, "the export failed", Py_XNewRef(made));
    Py_XDECREF(made);
    pairs_free(&p);
    PyMem_Free(ms.ms);
    hawk_context_destroy(ctx);
    return res;
}

/* build(units, out_dir, targets, options, check, cache_dir, warnings)
 *   -> ({key, cache, why_missed, kernels_built, kernels_restored}, warnings) */
static PyObject *py_build(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *units, *targets, *opts;
    const char *out_dir, *cache_dir;
    int check, warnings;
    if (!PyArg_ParseTuple(args, "OsOOpzi", &units, &out_dir, &targets, &opts,
                          &check, &cache_dir, &warnings))
        return NULL;
    HawkContext *ctx = context(warnings);
    if (ctx == NULL)
        return NULL;
    Modules ms = {0};
    Pairs p = {0};
    PyObject *res = NULL;
    int rc = pairs_of(opts, &p);

    /* the targets: a sequence of ids, as C strings the sequence owns */
    PyObject *ids = rc == 0 ? PySequence_Fast(targets, "targets must be a sequence of ids") : NULL;
    const char **tv = NULL;
    Py_ssize_t nt = ids != NULL ? PySequence_Fast_GET_SIZE(ids) : 0;
    if (ids == NULL)
        rc = -1;
    else if ((tv = PyMem_Calloc((size_t)(nt ? nt : 1), sizeof *tv)) == NULL)
        rc = (PyErr_NoMemory(), -1);
    for (Py_ssize_t i = 0; rc == 0 && i < nt; i++)
        if ((tv[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(ids, i))) == NULL)
            rc = -1;
    if (rc == 0)
        rc = parse_all(ctx, units, &ms);
    HawkBuildResult br;
    memset(&br, 0, sizeof br);
    if (rc == 0) {
        HawkBuildOptions o;
        hawk_build_options_init(&o);
        o.out_dir = out_dir;
        o.targets = nt ? tv : NULL;
        o.ntargets = (size_t)nt;
        o.opt_keys = p.keys;
        o.opt_vals = p.vals;
        o.nopts = p.n;
        o.check = check;
        o.cache_dir = cache_dir;
        o.result = &br;
        rc = hawk_build(ctx, ms.ms, ms.n, &o) != 0 ? 1 : 0;
    }
    static const char *const cache_names[] = {"off", "hit", "miss"};
    PyObject *value = NULL;
    if (rc == 0)
        value = Py_BuildValue("{s:z,s:s,s:z,s:n,s:n}", "key", br.key, "cache",
                              cache_names[br.cache], "why_missed", br.why_missed,
                              "kernels_built", (Py_ssize_t)br.kernels_built,
                              "kernels_restored", (Py_ssize_t)br.kernels_restored);
    res = door_result(ctx, rc, "the build failed", value);
    PyMem_Free(tv);
    Py_XDECREF(ids);
    pairs_free(&p);
    PyMem_Free(ms.ms);
    hawk_context_destroy(ctx);
    return res;
}

/* ---- a loaded build ---------------------------------------------------------- */

static const char RT_CAPSULE[] = "hawk._hawk.Rt";

static void rt_free(PyObject *cap)
{
    HawkRt *rt = PyCapsule_GetPointer(cap, RT_CAPSULE);
    if (rt != NULL)
        hawk_unload(rt);
}

/* load(dir) -> capsule; the error names its kind ("missing",
 * "source_only", ...) and says why. */
static PyObject *py_load(PyObject *self, PyObject *args)
{
    (void)self;
    const char *dir;
    if (!PyArg_ParseTuple(args, "s", &dir))
        return NULL;
    static const char *const kinds[] = {"ok", "missing", "source_only",
                                        "manifest", "load", "nomem"};
    char why[512] = "";
    HawkRtError err = HAWK_RT_OK;
    HawkRt *rt = hawk_load(dir, &err, why, sizeof why);
    if (rt == NULL) {
        PyObject *cls = error_class != NULL ? error_class : PyExc_RuntimeError;
        PyObject *diag = Py_BuildValue("[(sIIssszzs)]", dir, 0u, 0u, "error", why,
                                       kinds[err], NULL, NULL, why);
        PyObject *exc = diag ? PyObject_CallFunction(cls, "sN", why, diag) : NULL;
        if (exc != NULL) {
            PyErr_SetObject(cls, exc);
            Py_DECREF(exc);
        }
        return NULL;
    }
    return PyCapsule_New(rt, RT_CAPSULE, rt_free);
}

/* One field of a launch: its buffer pinned while the kernel runs. */
typedef struct {
    Py_buffer view;
    int held;
} Pin;

/* Sets field f of k in args from obj: a plane from a C-contiguous buffer
 * (writable when the kernel writes it), a value from its bytes. */
static int set_member(const HawkRtKernel *k, void *args, const char *field,
                      PyObject *obj, int plane, int writes, Pin *pin)
{
    int flags = PyBUF_C_CONTIGUOUS | (writes ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &pin->view, plane ? flags : PyBUF_SIMPLE) != 0)
        return -1;
    pin->held = 1;
    int rc = plane ? hawk_rt_set_plane(k, args, field, pin->view.buf)
                   : hawk_rt_set_field(k, args, field, pin->view.buf,
                                       (size_t)pin->view.len);
    if (rc != 0) {
        PyErr_Format(PyExc_ValueError, "'%s': no such member of the kernel's "
                                       "args, or not of %zd bytes",
                     field, pin->view.len);
        return -1;
    }
    return 0;
}

/* launch(rt, kernel, members, n_samples, threads) -> status; members is
 * a sequence of (field, object, is_plane, writes). */
static PyObject *py_launch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap, *members;
    const char *name;
    long long n;
    unsigned int threads;
    if (!PyArg_ParseTuple(args, "OsOLI", &cap, &name, &members, &n, &threads))
        return NULL;
    HawkRt *rt = PyCapsule_GetPointer(cap, RT_CAPSULE);
    if (rt == NULL)
        return NULL;
    const HawkRtKernel *k = hawk_rt_find(rt, name);
    if (k == NULL)
        return PyErr_Format(PyExc_KeyError, "no kernel '%s' in the build", name);
    PyObject *fast = PySequence_Fast(members, "members must be a sequence");
    if (fast == NULL)
        return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(fast);
    size_t size = hawk_rt_args_size(k);
    void *argbuf = PyMem_Calloc(size ? size : 1, 1);
    Pin *pins = PyMem_Calloc((size_t)(nm ? nm : 1), sizeof *pins);
    int rc = argbuf == NULL || pins == NULL ? (PyErr_NoMemory(), -1) : 0;
    for (Py_ssize_t i = 0; rc == 0 && i < nm; i++) {
        const char *field;
        PyObject *obj;
        int plane, writes;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "sOpp", &field,
                              &obj, &plane, &writes))
            rc = -1;
        else
            rc = set_member(k, argbuf, field, obj, plane, writes, &pins[i]);
    }
    int32_t status = 0;
    if (rc == 0) {
        Py_BEGIN_ALLOW_THREADS
        status = hawk_launch(k, argbuf, (int64_t)n, threads);
        Py_END_ALLOW_THREADS
    }
    for (Py_ssize_t i = 0; pins != NULL && i < nm; i++)
        if (pins[i].held)
            PyBuffer_Release(&pins[i].view);
    PyMem_Free(pins);
    PyMem_Free(argbuf);
    Py_DECREF(fast);
    return rc == 0 ? PyLong_FromLong((long)status) : NULL;
}

/* set_error(cls): the class errors are raised as, called as
 * cls(message, diagnostics). */
static PyObject *py_set_error(PyObject *self, PyObject *cls)
{
    (void)self;
    Py_XSETREF(error_class, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyObject *py_version(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyUnicode_FromString(hawk_version());
}

static PyMethodDef methods[] = {
    {"check", py_check, METH_VARARGS, "parse and verify HIR text"},
    {"run", py_run, METH_VARARGS, "run a pass pipeline over HIR text"},
    {"export", py_export, METH_VARARGS, "export kernels through a target"},
    {"build", py_build, METH_VARARGS, "build kernels for rows of the targets table"},
    {"load", py_load, METH_VARARGS, "load a build through its manifest"},
    {"launch", py_launch, METH_VARARGS, "launch a loaded kernel"},
    {"set_error", py_set_error, METH_O, "the class errors are raised as"},
    {"version", py_version, METH_NOARGS, "hawk's version"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_hawk", "libhawk and libhawk-rt for the hawk package",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__hawk(void)
{
    return PyModule_Create(&module);
}
