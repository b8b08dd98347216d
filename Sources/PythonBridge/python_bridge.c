/* Framelab's Python bridge: runs filter and detector elements written in Python.
 *
 * Built by scripts/build-plugins.sh into .build/python/libframelab-python.so, next to a copy
 * of framelab_plugin.py (the declarations a .py element file imports). It is not a plugin
 * itself: it exports no framelab_plugin_entry. The host (PluginLibrary) opens it when a .py
 * file is on the plugin path and calls framelab_python_plugin(path), which runs the file in
 * an embedded CPython (one interpreter per process, started on first use) and returns a
 * normal ABI 2 description whose element functions call into Python. So describing,
 * checking, test runs, in-process runs and runs in a plugin worker (--isolate) all go
 * through the host's ordinary plugin code.
 *
 * Frames cross as numpy arrays viewing the host's memory: a memoryview over the image's
 * bytes wrapped by numpy.ndarray with the image's row stride, so nothing is copied. The input
 * view is read-only. The GIL is held only during calls into Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <framelab_plugin.h>

/* Per element: the Python function and what create needs to turn values into a dict. */
typedef struct py_element {
    PyObject *function;
    int32_t kind;
    int32_t output_format; /* 0: the input's */
    const int32_t *formats;
    int32_t format_count;
    int32_t param_count;
    const fl_plugin_param *params;
    PyObject **param_names; /* str objects, keys of the params dict */
    const char *path;       /* the .py file, for exception lines */
} py_element;

typedef struct py_instance {
    const py_element *element;
    PyObject *params; /* dict: name -> value; updated in place by set_parameter */
} py_instance;

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
/* framelab_plugin._load collects into one module-level list: one file at a time. Taken
 * before the GIL, never while holding it, since loading may release the GIL for I/O. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;           /* 1 once the interpreter runs and the objects below are set */
static char start_error[1024]; /* why starting failed, repeated to every later caller */
static PyObject *ndarray_type, *uint8_dtype, *float32_dtype, *copyto, *load_file, *one_line;

static void set_error(char *err, size_t len, const char *text) {
    if (err && len) snprintf(err, len, "%s", text);
}

/* The pending Python exception as one line (framelab_plugin._one_line), cleared. */
static void exception_line(const char *path, char *err, size_t len) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *line = NULL;
    if (one_line) {
        line = PyObject_CallFunction(one_line, "OOOs", type ? type : Py_None, value ? value : Py_None,
                                     tb ? tb : Py_None, path ? path : "");
    }
    const char *text = line ? PyUnicode_AsUTF8(line) : NULL;
    if (text) {
        set_error(err, len, text);
    } else {
        /* Before framelab_plugin is imported (or if formatting failed): "Type: message". */
        PyErr_Clear();
        PyObject *str = value ? PyObject_Str(value) : NULL;
        const char *message = str ? PyUnicode_AsUTF8(str) : NULL;
        snprintf(err, len, "%s%s%s", type ? ((PyTypeObject *)type)->tp_name : "unknown Python error",
                 message && *message ? ": " : "", message ? message : "");
        for (char *c = err; len && *c; c++) if (*c == '\n') *c = ' ';
        Py_XDECREF(str);
        PyErr_Clear();
    }
    Py_XDECREF(line);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

/* The folder this library lives in (framelab_plugin.py is copied beside it). */
static int own_folder(char *out, size_t len) {
    Dl_info info;
    if (!dladdr((void *)&own_folder, &info) || !info.dli_fname) return 0;
    snprintf(out, len, "%s", info.dli_fname);
    char *slash = strrchr(out, '/');
    if (!slash) return 0;
    *slash = '\0';
    return 1;
}

/* Runs Python statements with `folder` and `site` bound; 0 and an error line on failure. */
static int run_setup(const char *code, const char *folder, const char *site, char *err, size_t len) {
    PyObject *globals = PyDict_New();
    PyObject *f = PyUnicode_FromString(folder), *s = PyUnicode_FromString(site);
    PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
    PyDict_SetItemString(globals, "folder", f);
    PyDict_SetItemString(globals, "site_packages", s);
    PyObject *r = PyRun_String(code, Py_file_input, globals, globals);
    Py_XDECREF(f);
    Py_XDECREF(s);
    Py_DECREF(globals);
    if (!r) {
        exception_line(NULL, err, len);
        return 0;
    }
    Py_DECREF(r);
    return 1;
}

/* Starts the interpreter: no signal handlers (the host owns signals), libpython's symbols
 * made global (numpy's extension modules are not linked against libpython and the host
 * opened this library RTLD_LOCAL), the venv's site-packages first on sys.path. */
static int start_python(const char *venv, char *err, size_t len) {
    char folder[4096], site[4096] = "";
    if (venv && *venv) snprintf(site, sizeof site, "%s/lib/python%d.%d/site-packages", venv, PY_MAJOR_VERSION, PY_MINOR_VERSION);
    if (!own_folder(folder, sizeof folder)) {
        set_error(err, len, "the Python bridge cannot find its own folder");
        return 0;
    }
    Dl_info info;
    if (dladdr((void *)&Py_InitializeFromConfig, &info) && info.dli_fname) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    PyStatus status = PyConfig_SetBytesString(&config, &config.program_name, "framelab-python");
    if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(status)) {
        snprintf(err, len, "cannot start the embedded Python %s: %s", PY_VERSION,
                 status.err_msg ? status.err_msg : "unknown error");
        return 0;
    }
    int ok = run_setup("import sys, site\n"
                       "sys.path.insert(0, folder)\n"
                       "if site_packages and __import__('os').path.isdir(site_packages):\n"
                       "    sys.path.insert(1, site_packages)\n"
                       "    site.addsitedir(site_packages)\n",
                       folder, site, err, len);
    if (ok) {
        PyObject *numpy = PyImport_ImportModule("numpy");
        if (!numpy) {
            char why[512];
            exception_line(NULL, why, sizeof why);
            snprintf(err, len, "numpy is not importable by the embedded Python %s (%s; site-packages searched: %s); "
                     "install numpy there, or set FRAMELAB_PYTHON_VENV to a Python %d.%d venv that has it",
                     PY_VERSION, why, *site ? site : "none", PY_MAJOR_VERSION, PY_MINOR_VERSION);
            ok = 0;
        } else {
            ndarray_type = PyObject_GetAttrString(numpy, "ndarray");
            copyto = PyObject_GetAttrString(numpy, "copyto");
            PyObject *dtype = PyObject_GetAttrString(numpy, "dtype");
            uint8_dtype = dtype ? PyObject_CallFunction(dtype, "s", "uint8") : NULL;
            float32_dtype = dtype ? PyObject_CallFunction(dtype, "s", "float32") : NULL;
            Py_XDECREF(dtype);
            Py_DECREF(numpy);
            PyObject *support = PyImport_ImportModule("framelab_plugin");
            if (support) {
                load_file = PyObject_GetAttrString(support, "_load");
                one_line = PyObject_GetAttrString(support, "_one_line");
                Py_DECREF(support);
            }
            if (!ndarray_type || !copyto || !uint8_dtype || !float32_dtype || !load_file || !one_line) {
                char why[512];
                exception_line(NULL, why, sizeof why);
                snprintf(err, len, "cannot set up the embedded Python (framelab_plugin.py beside %s/libframelab-python.so?): %s",
                         folder, why);
                ok = 0;
            }
        }
    }
    PyEval_SaveThread(); /* release the GIL: each call takes it */
    return ok;
}

/* ---- frames as numpy views ---- */

static int format_shape(int32_t format, int *channels, int *item) {
    switch (format) {
    case FL_PLUGIN_GRAY8: *channels = 1; *item = 1; return 1;
    case FL_PLUGIN_BGR8: *channels = 3; *item = 1; return 1;
    case FL_PLUGIN_BGRA8: *channels = 4; *item = 1; return 1;
    case FL_PLUGIN_GRAYF32: *channels = 1; *item = 4; return 1;
    default: return 0;
    }
}

/* A numpy array over `image`'s memory (read-only unless `writable`); NULL with an
 * exception set on failure. */
static PyObject *view(const fl_plugin_image *image, int writable) {
    int channels, item;
    if (!format_shape(image->format, &channels, &item) || image->width <= 0 || image->height <= 0 ||
        image->stride < (int64_t)image->width * channels * item || !image->data) {
        PyErr_Format(PyExc_ValueError, "the host handed an image the bridge cannot view (format %d, %dx%d, stride %lld)",
                     (int)image->format, (int)image->width, (int)image->height, (long long)image->stride);
        return NULL;
    }
    Py_ssize_t bytes = (Py_ssize_t)(image->stride * (image->height - 1) + (int64_t)image->width * channels * item);
    PyObject *memory = PyMemoryView_FromMemory(image->data, bytes, writable ? PyBUF_WRITE : PyBUF_READ);
    if (!memory) return NULL;
    PyObject *shape, *strides;
    if (channels == 1) {
        shape = Py_BuildValue("(ii)", (int)image->height, (int)image->width);
        strides = Py_BuildValue("(Li)", (long long)image->stride, item);
    } else {
        shape = Py_BuildValue("(iii)", (int)image->height, (int)image->width, channels);
        strides = Py_BuildValue("(Lii)", (long long)image->stride, channels, 1);
    }
    PyObject *array = NULL;
    if (shape && strides) {
        /* ndarray(shape, dtype, buffer, offset, strides) */
        PyObject *args = Py_BuildValue("(OOOiO)", shape, item == 4 ? float32_dtype : uint8_dtype, memory, 0, strides);
        if (args) array = PyObject_Call(ndarray_type, args, NULL);
        Py_XDECREF(args);
    }
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    Py_DECREF(memory);
    return array;
}

/* ---- element functions ---- */

static fl_plugin_status py_create(void *user_data, const fl_plugin_value *values, void **instance,
                                  char *err, size_t len) {
    const py_element *e = user_data;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *params = PyDict_New();
    int ok = params != NULL;
    for (int32_t i = 0; ok && i < e->param_count; i++) {
        PyObject *v;
        switch (e->params[i].type) {
        case FL_PARAM_FLOAT: v = PyFloat_FromDouble(values[i].number); break;
        case FL_PARAM_INT: v = PyLong_FromLongLong((long long)values[i].number); break;
        case FL_PARAM_BOOL: v = PyBool_FromLong(values[i].number != 0); break;
        default: v = PyUnicode_FromString(values[i].string ? values[i].string : ""); break;
        }
        ok = v && PyDict_SetItem(params, e->param_names[i], v) == 0;
        Py_XDECREF(v);
    }
    py_instance *made = ok ? calloc(1, sizeof *made) : NULL;
    if (!made) {
        if (PyErr_Occurred()) exception_line(e->path, err, len);
        else set_error(err, len, "out of memory");
        Py_XDECREF(params);
        PyGILState_Release(gil);
        return FL_PLUGIN_ERROR;
    }
    made->element = e;
    made->params = params;
    *instance = made;
    PyGILState_Release(gil);
    return FL_PLUGIN_OK;
}

static fl_plugin_status py_set_parameter(void *instance, int32_t index, const fl_plugin_value *value,
                                         char *err, size_t len) {
    py_instance *self = instance;
    const py_element *e = self->element;
    if (index < 0 || index >= e->param_count) return FL_PLUGIN_UNSUPPORTED;
    fl_plugin_value values[1] = {*value};
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *v;
    switch (e->params[index].type) {
    case FL_PARAM_FLOAT: v = PyFloat_FromDouble(values[0].number); break;
    case FL_PARAM_INT: v = PyLong_FromLongLong((long long)values[0].number); break;
    case FL_PARAM_BOOL: v = PyBool_FromLong(values[0].number != 0); break;
    default: v = PyUnicode_FromString(values[0].string ? values[0].string : ""); break;
    }
    int ok = v && PyDict_SetItem(self->params, e->param_names[index], v) == 0;
    Py_XDECREF(v);
    if (!ok) exception_line(e->path, err, len);
    PyGILState_Release(gil);
    return ok ? FL_PLUGIN_OK : FL_PLUGIN_ERROR;
}

static void py_destroy(void *instance) {
    py_instance *self = instance;
    if (!self) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    Py_XDECREF(self->params);
    PyGILState_Release(gil);
    free(self);
}

static int32_t py_output_format(void *user_data, int32_t input_format) {
    const py_element *e = user_data;
    for (int32_t i = 0; i < e->format_count; i++) {
        if (e->formats[i] == input_format) return e->output_format ? e->output_format : input_format;
    }
    return 0;
}

/* "(61, 97, 4) uint8": an array's shape and dtype, for messages. */
static void describe_array(PyObject *array, char *out, size_t len) {
    PyObject *shape = PyObject_GetAttrString(array, "shape");
    PyObject *dtype = PyObject_GetAttrString(array, "dtype");
    PyObject *s = shape ? PyObject_Str(shape) : NULL, *d = dtype ? PyObject_Str(dtype) : NULL;
    const char *st = s ? PyUnicode_AsUTF8(s) : NULL, *dt = d ? PyUnicode_AsUTF8(d) : NULL;
    snprintf(out, len, "%s %s", st ? st : "?", dt ? dt : "?");
    PyErr_Clear();
    Py_XDECREF(shape);
    Py_XDECREF(dtype);
    Py_XDECREF(s);
    Py_XDECREF(d);
}

/* 1 when `a` and `b` have equal shape and dtype. */
static int same_layout(PyObject *a, PyObject *b) {
    int same = 0;
    const char *attrs[] = {"shape", "dtype"};
    for (int i = 0; i < 2; i++) {
        PyObject *x = PyObject_GetAttrString(a, attrs[i]), *y = PyObject_GetAttrString(b, attrs[i]);
        same = x && y && PyObject_RichCompareBool(x, y, Py_EQ) == 1;
        Py_XDECREF(x);
        Py_XDECREF(y);
        if (!same) break;
    }
    PyErr_Clear();
    return same;
}

static fl_plugin_status py_process(void *instance, const fl_plugin_image *input, fl_plugin_image *output,
                                   char *err, size_t len) {
    py_instance *self = instance;
    const py_element *e = self->element;
    fl_plugin_status status = FL_PLUGIN_OK;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *src = view(input, 0);
    PyObject *dst = src ? view(output, 1) : NULL;
    PyObject *result = dst ? PyObject_CallFunctionObjArgs(e->function, src, dst, self->params, NULL) : NULL;
    if (!result) {
        exception_line(e->path, err, len);
        status = FL_PLUGIN_ERROR;
    } else if (result == src) {
        *output = *input; /* pass-through */
    } else if (result != Py_None && result != dst) {
        int is_array = PyObject_IsInstance(result, ndarray_type) == 1;
        if (is_array && same_layout(result, dst)) {
            PyObject *r = PyObject_CallFunctionObjArgs(copyto, dst, result, NULL);
            if (!r) {
                exception_line(e->path, err, len);
                status = FL_PLUGIN_ERROR;
            }
            Py_XDECREF(r);
        } else {
            char got[160], want[160];
            if (is_array) describe_array(result, got, sizeof got);
            else snprintf(got, sizeof got, "a %s", Py_TYPE(result)->tp_name);
            describe_array(dst, want, sizeof want);
            snprintf(err, len, "returned %s; a filter returns None (after writing out), out, frame, or an array of out's shape and dtype, %s",
                     got, want);
            status = FL_PLUGIN_ERROR;
        }
    }
    PyErr_Clear();
    Py_XDECREF(result);
    Py_XDECREF(dst);
    Py_XDECREF(src);
    PyGILState_Release(gil);
    return status;
}

/* Reads one box (x, y, width, height, score) into `d`; 0 with a message when it is not one. */
static int read_box(PyObject *item, Py_ssize_t index, fl_plugin_detection *d, char *err, size_t len) {
    PyObject *row = PySequence_Fast(item, "");
    double v[5];
    int ok = row && PySequence_Fast_GET_SIZE(row) == 5;
    for (int k = 0; ok && k < 5; k++) {
        v[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, k));
        ok = !(v[k] == -1.0 && PyErr_Occurred()) && isfinite(v[k]) && fabs(v[k]) < 1e9;
    }
    Py_XDECREF(row);
    PyErr_Clear();
    if (!ok) {
        snprintf(err, len, "box %zd is not 5 finite numbers (x, y, width, height, score)", index);
        return 0;
    }
    memset(d, 0, sizeof *d);
    d->x = (float)v[0];
    d->y = (float)v[1];
    d->width = (float)v[2];
    d->height = (float)v[3];
    d->score = (float)v[4];
    return 1;
}

static fl_plugin_status py_detect(void *instance, const fl_plugin_image *input, fl_plugin_detection *detections,
                                  int32_t capacity, int32_t *count, char *err, size_t len) {
    py_instance *self = instance;
    const py_element *e = self->element;
    fl_plugin_status status = FL_PLUGIN_OK;
    *count = 0;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *src = view(input, 0);
    PyObject *result = src ? PyObject_CallFunctionObjArgs(e->function, src, self->params, NULL) : NULL;
    PyObject *boxes = result ? PySequence_Fast(result, "") : NULL;
    if (!result) {
        exception_line(e->path, err, len);
        status = FL_PLUGIN_ERROR;
    } else if (!boxes) {
        PyErr_Clear();
        snprintf(err, len, "returned a %s; a detector returns boxes: a list of (x, y, width, height, score) or an (n, 5) array",
                 Py_TYPE(result)->tp_name);
        status = FL_PLUGIN_ERROR;
    } else {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(boxes);
        for (Py_ssize_t i = 0; i < n && i < capacity; i++) {
            if (!read_box(PySequence_Fast_GET_ITEM(boxes, i), i, &detections[i], err, len)) {
                status = FL_PLUGIN_ERROR;
                *count = 0;
                break;
            }
            *count = (int32_t)(i + 1);
        }
    }
    Py_XDECREF(boxes);
    Py_XDECREF(result);
    Py_XDECREF(src);
    PyGILState_Release(gil);
    return status;
}

/* ---- the description ---- */

static char *copy_text(PyObject *object) {
    const char *text = object && PyUnicode_Check(object) ? PyUnicode_AsUTF8(object) : NULL;
    return text ? strdup(text) : NULL;
}

static char *copy_attr(PyObject *object, const char *name) {
    PyObject *value = PyObject_GetAttrString(object, name);
    char *text = value && value != Py_None ? copy_text(value) : NULL;
    Py_XDECREF(value);
    return text;
}

static double number_attr(PyObject *object, const char *name) {
    PyObject *value = PyObject_GetAttrString(object, name);
    double number = value ? PyFloat_AsDouble(value) : NAN;
    Py_XDECREF(value);
    PyErr_Clear();
    return number;
}

/* Fills `param` from a framelab_plugin._Param; 0 on failure. */
static int read_param(PyObject *p, fl_plugin_param *param, PyObject **name) {
    PyObject *type = PyObject_GetAttrString(p, "type_code");
    param->struct_size = sizeof *param;
    param->type = type ? (int32_t)PyLong_AsLong(type) : 0;
    Py_XDECREF(type);
    param->name = copy_attr(p, "name");
    param->minimum = number_attr(p, "minimum");
    param->maximum = number_attr(p, "maximum");
    param->description = copy_attr(p, "description");
    param->choices = copy_attr(p, "choices");
    if (param->type == FL_PARAM_ENUM || param->type == FL_PARAM_STRING) {
        param->default_string = copy_attr(p, "default");
    } else {
        param->default_number = number_attr(p, "default");
    }
    *name = PyObject_GetAttrString(p, "name");
    PyErr_Clear();
    return param->name && param->description && *name;
}

/* Fills element `i` from a declaration tuple (kind, name, version, description, formats,
 * params, function, output_format); 0 on failure. */
static int read_element(PyObject *entry, fl_plugin_element *el, py_element *e, const char *path) {
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 8) return 0;
    PyObject *formats = PyTuple_GET_ITEM(entry, 4), *params = PyTuple_GET_ITEM(entry, 5);
    el->struct_size = sizeof *el;
    el->kind = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    el->name = copy_text(PyTuple_GET_ITEM(entry, 1));
    el->version = copy_text(PyTuple_GET_ITEM(entry, 2));
    el->description = copy_text(PyTuple_GET_ITEM(entry, 3));
    if (!el->name || !el->version || !el->description || !PyTuple_Check(formats) || !PyList_Check(params)) return 0;
    Py_ssize_t nf = PyTuple_GET_SIZE(formats), np = PyList_GET_SIZE(params);
    int32_t *codes = calloc((size_t)nf + 1, sizeof *codes);
    fl_plugin_param *ps = calloc((size_t)np + 1, sizeof *ps);
    e->param_names = calloc((size_t)np + 1, sizeof *e->param_names);
    if (!codes || !ps || !e->param_names) return 0;
    for (Py_ssize_t i = 0; i < nf; i++) codes[i] = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(formats, i));
    for (Py_ssize_t i = 0; i < np; i++) {
        if (!read_param(PyList_GET_ITEM(params, i), &ps[i], &e->param_names[i])) return 0;
    }
    el->formats = codes;
    el->format_count = (int32_t)nf;
    el->param_stride = sizeof(fl_plugin_param);
    el->params = ps;
    el->param_count = (int32_t)np;
    el->user_data = e;
    el->create = py_create;
    el->destroy = py_destroy;
    el->set_parameter = py_set_parameter;
    e->function = PyTuple_GET_ITEM(entry, 6);
    Py_INCREF(e->function);
    e->kind = el->kind;
    e->output_format = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(entry, 7));
    e->formats = codes;
    e->format_count = (int32_t)nf;
    e->param_count = (int32_t)np;
    e->params = ps;
    e->path = path;
    if (el->kind == FL_PLUGIN_FILTER) {
        el->process = py_process;
        el->output_format = py_output_format;
    } else {
        el->detect = py_detect;
    }
    PyErr_Clear();
    return 1;
}

/* Runs the element file at `path` and describes what it declared. The site-packages of
 * `venv` (may be empty) go first on sys.path when this call starts the interpreter. Returns NULL with a
 * one-line reason in `err` (not naming the file: the host does). The description lives as
 * long as the process, like a shared library's static data. */
FL_PLUGIN_EXPORT const fl_plugin *framelab_python_plugin(const char *path, const char *venv,
                                                         char *err, size_t err_len) {
    pthread_mutex_lock(&start_lock);
    if (!started) {
        started = start_python(venv ? venv : "", start_error, sizeof start_error) ? 1 : -1;
    }
    int state = started;
    pthread_mutex_unlock(&start_lock);
    if (state != 1) {
        set_error(err, err_len, start_error);
        return NULL;
    }
    char *own_path = strdup(path);
    fl_plugin *plugin = calloc(1, sizeof *plugin);
    if (!own_path || !plugin) {
        set_error(err, err_len, "out of memory");
        return NULL;
    }
    pthread_mutex_lock(&load_lock);
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *declared = PyObject_CallFunction(load_file, "s", path);
    const fl_plugin *answer = NULL;
    if (!declared) {
        exception_line(own_path, err, err_len);
    } else if (!PyList_Check(declared) || PyList_GET_SIZE(declared) == 0) {
        set_error(err, err_len, "declares no element (decorate a function with framelab_plugin.filter or .detector)");
    } else {
        Py_ssize_t n = PyList_GET_SIZE(declared);
        fl_plugin_element *elements = calloc((size_t)n, sizeof *elements);
        py_element *bridges = calloc((size_t)n, sizeof *bridges);
        int ok = elements && bridges;
        for (Py_ssize_t i = 0; ok && i < n; i++) {
            ok = read_element(PyList_GET_ITEM(declared, i), &elements[i], &bridges[i], own_path);
        }
        if (!ok) {
            set_error(err, err_len, "the Python bridge could not read a declaration (out of memory, or framelab_plugin.py does not match the bridge)");
        } else {
            plugin->abi_major = FL_PLUGIN_ABI_MAJOR;
            plugin->abi_minor = FL_PLUGIN_ABI_MINOR;
            plugin->struct_size = sizeof *plugin;
            plugin->element_stride = sizeof(fl_plugin_element);
            const char *slash = strrchr(own_path, '/');
            plugin->name = slash ? slash + 1 : own_path; /* the file name, as a .so names itself */
            plugin->elements = elements;
            plugin->element_count = (int32_t)n;
            answer = plugin;
        }
    }
    Py_XDECREF(declared);
    PyErr_Clear();
    PyGILState_Release(gil);
    pthread_mutex_unlock(&load_lock);
    return answer;
}
