// Bindings of <loom/buffer.h>: Buffer, shared without copies with NumPy (the buffer protocol,
// both ways) and with any DLPack producer or consumer (PyTorch, JAX, NumPy).
//
// The axis rule is Halide's: a Buffer made from an array sees the array's axes reversed (the
// last NumPy axis is x, dimension 0), and exporting a Buffer reverses them back, so an image
// `a[y, x, c]` in NumPy (row-major) is `b[c, x, y]`... unless reverse_axes=False keeps the
// order. Wrapped memory stays alive as long as any Buffer (or pipeline) uses it.
#include "py_util.h"

#include <nanobind/stl/pair.h>

#include <cstring>

namespace loom {
namespace python {

namespace {

// ---- DLPack's C ABI (the DLPack specification, v1.0): the structs a capsule carries ----

struct DLDevice {
    int32_t device_type; ///< 1: CPU
    int32_t device_id;
};
struct DLDataType {
    uint8_t code; ///< 0 int, 1 uint, 2 float, 4 bfloat, 6 bool
    uint8_t bits;
    uint16_t lanes;
};
struct DLTensor {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; ///< in elements; null means compact row-major
    uint64_t byte_offset;
};
struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(DLManagedTensor *self);
};
struct DLPackVersion {
    uint32_t major, minor;
};
struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(DLManagedTensorVersioned *self);
    uint64_t flags; ///< bit 0: read only
    DLTensor dl_tensor;
};
const int kDLCPU = 1;

// ---- Types ----

/// The PEP 3118 format character of an element type; null for a type NumPy has no code for.
const char *format_of(Type t) {
    if (t.is_bool()) return "?";
    switch (t.code()) {
    case Type::Int:
        return t.bits() == 8 ? "b" : t.bits() == 16 ? "h" : t.bits() == 32 ? "i" : "q";
    case Type::UInt:
        return t.bits() == 8 ? "B" : t.bits() == 16 ? "H" : t.bits() == 32 ? "I" : "Q";
    case Type::Float:
        return t.bits() == 16 ? "e" : t.bits() == 32 ? "f" : "d";
    default:
        return nullptr;
    }
}

/// The element type of a PEP 3118 format (native byte order only).
Type type_of_format(const char *format, Py_ssize_t itemsize) {
    std::string f = format ? format : "B";
    if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<')) f = f.substr(1);
    if (f.size() == 1) {
        int bits = (int)itemsize * 8;
        switch (f[0]) {
        case '?':
            return Bool();
        case 'b':
        case 'h':
        case 'i':
        case 'l':
        case 'q':
        case 'n':
            return Int(bits);
        case 'B':
        case 'H':
        case 'I':
        case 'L':
        case 'Q':
        case 'N':
            return UInt(bits);
        case 'e':
        case 'f':
        case 'd':
            return Float(bits);
        }
    }
    throw nb::type_error(("A Buffer cannot hold elements of the buffer-protocol format '" + f +
                          "' (ints, uints, floats of 16/32/64 bits and bools are supported)")
                             .c_str());
}

Type type_of_dlpack(DLDataType d) {
    if (d.lanes != 1) throw nb::type_error("A Buffer cannot wrap a DLPack tensor of vector lanes");
    switch (d.code) {
    case 0:
        return Int(d.bits);
    case 1:
        return UInt(d.bits);
    case 2:
        return Float(d.bits);
    case 4:
        return BFloat(d.bits);
    case 6:
        return Bool();
    }
    throw nb::type_error(
        ("A Buffer cannot wrap a DLPack tensor of type code " + std::to_string(d.code)).c_str());
}

DLDataType dlpack_type_of(Type t) {
    uint8_t code = t.is_bool() ? 6 : t.is_bfloat() ? 4 : t.is_float() ? 2 : t.is_uint() ? 1 : 0;
    return DLDataType{code, (uint8_t)(t.is_bool() ? 8 : t.bits()), 1};
}

// ---- Wrapping Python memory ----

/// Releases what a wrapped Buffer's owner holds, with the GIL (the last Buffer may go away on a
/// pipeline's worker thread). After the interpreter has finished, there is nothing to release.
template <typename Fn>
void with_gil(Fn &&fn) {
    if (!Py_IsInitialized()) return;
    PyGILState_STATE state = PyGILState_Ensure();
    fn();
    PyGILState_Release(state);
}

void release_py_buffer(void *owner) {
    with_gil([&] {
        PyBuffer_Release((Py_buffer *)owner);
        delete (Py_buffer *)owner;
    });
}

void release_dlpack(void *owner) {
    with_gil([&] {
        auto *t = (DLManagedTensor *)owner;
        if (t->deleter) t->deleter(t);
    });
}

void release_dlpack_versioned(void *owner) {
    with_gil([&] {
        auto *t = (DLManagedTensorVersioned *)owner;
        if (t->deleter) t->deleter(t);
    });
}

/// Halide's dimensions of an array of `ndim` axes: reversed (axis ndim-1 first) unless told not
/// to. Strides in bytes must be whole elements.
std::vector<halide_dimension_t> dims_of(int ndim, const int64_t *shape, const int64_t *strides,
                                        int64_t stride_unit, bool reverse_axes) {
    std::vector<halide_dimension_t> dims(ndim);
    for (int i = 0; i < ndim; i++) {
        int axis = reverse_axes ? ndim - 1 - i : i;
        int64_t stride = strides[axis];
        if (stride % stride_unit != 0) {
            throw nb::value_error("A Buffer cannot wrap an array whose strides are not whole "
                                  "elements; copy it first (numpy.ascontiguousarray)");
        }
        dims[i] = halide_dimension_t{0, (int32_t)shape[axis], (int32_t)(stride / stride_unit)};
    }
    return dims;
}

Buffer<void> from_python_buffer(nb::handle obj, const std::string &name, bool reverse_axes) {
    auto *view = new Py_buffer;
    if (PyObject_GetBuffer(obj.ptr(), view, PyBUF_RECORDS) != 0) {
        // A read-only array (np.frombuffer of bytes, say) is wrapped as it is: a pipeline only
        // reads its inputs.
        PyErr_Clear();
        if (PyObject_GetBuffer(obj.ptr(), view, PyBUF_RECORDS_RO) != 0) {
            delete view;
            throw nb::python_error();
        }
    }
    try {
        Type t = type_of_format(view->format, view->itemsize);
        std::vector<int64_t> shape(view->ndim), strides(view->ndim);
        for (int i = 0; i < view->ndim; i++) {
            shape[i] = view->shape[i];
            strides[i] = view->strides ? view->strides[i] : 0;
        }
        if (!view->strides) { // C-contiguous without strides given
            int64_t s = view->itemsize;
            for (int i = view->ndim - 1; i >= 0; i--) {
                strides[i] = s;
                s *= shape[i];
            }
        }
        std::vector<halide_dimension_t> dims =
            dims_of(view->ndim, shape.data(), strides.data(), view->itemsize, reverse_axes);
        Runtime::Buffer<void> rb(t, view->buf, view->ndim, dims.data(), release_py_buffer, view);
        return Buffer<void>(rb, name);
    } catch (...) {
        PyBuffer_Release(view);
        delete view;
        throw;
    }
}

Buffer<void> from_dlpack(nb::handle obj, const std::string &name, bool reverse_axes) {
    nb::object capsule;
    try {
        capsule = obj.attr("__dlpack__")(nb::arg("max_version") = nb::make_tuple(1, 0));
    } catch (const nb::python_error &e) {
        if (!e.matches(PyExc_TypeError)) throw;
        capsule = obj.attr("__dlpack__")();
    }
    bool versioned = PyCapsule_IsValid(capsule.ptr(), "dltensor_versioned");
    void *owner =
        PyCapsule_GetPointer(capsule.ptr(), versioned ? "dltensor_versioned" : "dltensor");
    if (!owner) throw nb::python_error();
    DLTensor &t = versioned ? ((DLManagedTensorVersioned *)owner)->dl_tensor
                            : ((DLManagedTensor *)owner)->dl_tensor;
    if (t.device.device_type != kDLCPU) {
        throw nb::value_error("A Buffer can only wrap a DLPack tensor in CPU memory; move it to "
                              "the CPU first (e.g. tensor.cpu())");
    }
    Type type = type_of_dlpack(t.dtype);
    // Strides in elements; none given means compact row-major.
    std::vector<int64_t> strides(t.ndim);
    int64_t compact = 1;
    for (int i = t.ndim - 1; i >= 0; i--) {
        strides[i] = t.strides ? t.strides[i] : compact;
        compact *= t.shape[i];
    }
    std::vector<halide_dimension_t> dims =
        dims_of(t.ndim, t.shape, strides.data(), 1, reverse_axes);
    void *data = (uint8_t *)t.data + t.byte_offset;
    // The capsule is consumed: renamed so its own destructor leaves the tensor to us.
    PyCapsule_SetName(capsule.ptr(), versioned ? "used_dltensor_versioned" : "used_dltensor");
    Runtime::Buffer<void> rb(type, data, t.ndim, dims.data(),
                             versioned ? release_dlpack_versioned : release_dlpack, owner);
    return Buffer<void>(rb, name);
}

/// Buffer(obj): NumPy arrays and anything else with the buffer protocol, else DLPack producers.
Buffer<void> buffer_from_object(nb::handle obj, const std::string &name, bool reverse_axes) {
    if (PyObject_CheckBuffer(obj.ptr())) return from_python_buffer(obj, name, reverse_axes);
    if (nb::hasattr(obj, "__dlpack__")) return from_dlpack(obj, name, reverse_axes);
    throw nb::type_error(("Cannot make a Buffer from a " +
                          nb::cast<std::string>(nb::str(obj.type().attr("__name__"))) +
                          ": expected a NumPy array or an object with the buffer protocol or "
                          "__dlpack__")
                             .c_str());
}

// ---- Exporting ----

/// The shape and strides an export describes, kept alive with the export.
struct ExportShape {
    Buffer<void> buffer; ///< keeps the memory alive while exported
    std::vector<Py_ssize_t> shape, strides;
    std::vector<int64_t> dl_shape, dl_strides;
};

/// Data ready for the host: a device-dirty Buffer is copied back first.
void prepare_host(Buffer<void> &b) {
    if (b.device_dirty()) b.copy_to_host();
}

int buffer_get(PyObject *self, Py_buffer *view, int flags) {
    Buffer<void> *b = nb::inst_ptr<Buffer<void>>(self);
    try {
        if (!b->defined()) throw nb::value_error("Cannot export an undefined Buffer");
        const char *format = format_of(b->type());
        if (!format) {
            throw nb::type_error(("A Buffer of type " + type_to_string(b->type()) +
                                  " has no buffer-protocol format; use __dlpack__")
                                     .c_str());
        }
        prepare_host(*b);
        auto *shape = new ExportShape{*b, {}, {}, {}, {}};
        int d = b->dimensions();
        for (int i = d - 1; i >= 0; i--) { // reversed: the last axis is x
            shape->shape.push_back(b->dim(i).extent());
            shape->strides.push_back((Py_ssize_t)b->dim(i).stride() * b->type().bytes());
        }
        *view = Py_buffer{};
        view->buf = b->data();
        view->obj = self;
        Py_INCREF(self);
        view->len = (Py_ssize_t)b->size_in_bytes();
        view->itemsize = b->type().bytes();
        view->readonly = 0;
        view->format = (flags & PyBUF_FORMAT) ? (char *)format : nullptr;
        view->ndim = d;
        view->shape = shape->shape.data();
        view->strides = shape->strides.data();
        view->internal = shape;
        if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE) b->set_host_dirty();
        return 0;
    } catch (const std::exception &e) {
        PyErr_SetString(PyExc_BufferError, e.what());
    }
    view->obj = nullptr;
    return -1;
}

void buffer_release(PyObject *, Py_buffer *view) { delete (ExportShape *)view->internal; }

PyType_Slot buffer_slots[] = {{Py_bf_getbuffer, (void *)buffer_get},
                              {Py_bf_releasebuffer, (void *)buffer_release},
                              {0, nullptr}};

void dlpack_deleter(DLManagedTensor *t) {
    delete (ExportShape *)t->manager_ctx;
    delete t;
}

void dlpack_capsule_destructor(PyObject *capsule) {
    // Only a capsule nobody consumed still owns its tensor.
    if (PyCapsule_IsValid(capsule, "dltensor")) {
        auto *t = (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
        t->deleter(t);
    }
}

nb::object to_dlpack(Buffer<void> &b) {
    if (!b.defined()) throw nb::value_error("Cannot export an undefined Buffer");
    prepare_host(b);
    auto *shape = new ExportShape{b, {}, {}, {}, {}};
    int d = b.dimensions();
    for (int i = d - 1; i >= 0; i--) {
        shape->dl_shape.push_back(b.dim(i).extent());
        shape->dl_strides.push_back(b.dim(i).stride());
    }
    auto *t = new DLManagedTensor{};
    t->dl_tensor.data = b.data();
    t->dl_tensor.device = DLDevice{kDLCPU, 0};
    t->dl_tensor.ndim = d;
    t->dl_tensor.dtype = dlpack_type_of(b.type());
    t->dl_tensor.shape = shape->dl_shape.data();
    t->dl_tensor.strides = shape->dl_strides.data();
    t->manager_ctx = shape;
    t->deleter = dlpack_deleter;
    b.set_host_dirty();
    return nb::steal(PyCapsule_New(t, "dltensor", dlpack_capsule_destructor));
}

// ---- Elements ----

/// Calls fn with a typed null pointer for the element type.
template <typename Fn>
auto with_element_type(Type t, Fn &&fn) {
    if (t.is_bool()) return fn((bool *)nullptr);
    switch (t.code()) {
    case Type::Int:
        switch (t.bits()) {
        case 8:
            return fn((int8_t *)nullptr);
        case 16:
            return fn((int16_t *)nullptr);
        case 32:
            return fn((int32_t *)nullptr);
        default:
            return fn((int64_t *)nullptr);
        }
    case Type::UInt:
        switch (t.bits()) {
        case 8:
            return fn((uint8_t *)nullptr);
        case 16:
            return fn((uint16_t *)nullptr);
        case 32:
            return fn((uint32_t *)nullptr);
        default:
            return fn((uint64_t *)nullptr);
        }
    case Type::Float:
        switch (t.bits()) {
        case 16:
            return fn((float16_t *)nullptr);
        case 32:
            return fn((float *)nullptr);
        default:
            return fn((double *)nullptr);
        }
    case Type::BFloat:
        return fn((bfloat16_t *)nullptr);
    default:
        throw nb::type_error(
            ("Cannot access elements of a Buffer of type " + type_to_string(t)).c_str());
    }
}

template <typename T>
nb::object element_to_python(const T &v) {
    if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
        return nb::cast((double)v);
    } else {
        return nb::cast(v);
    }
}

template <typename T>
T element_from_python(nb::handle h) {
    if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) {
        return T(nb::cast<double>(h));
    } else {
        return nb::cast<T>(h);
    }
}

/// The integer coordinates of b[...], checked against the shape.
std::vector<int> coordinates(const Buffer<void> &b, nb::handle key) {
    std::vector<int> pos;
    if (nb::isinstance<nb::tuple>(key) || nb::isinstance<nb::list>(key)) {
        for (nb::handle h : key) pos.push_back(nb::cast<int>(h));
    } else {
        pos.push_back(nb::cast<int>(key));
    }
    if ((int)pos.size() != b.dimensions()) {
        throw nb::index_error(("Buffer '" + b.name() + "' has " + std::to_string(b.dimensions()) +
                               " dimensions, indexed with " + std::to_string(pos.size()))
                                  .c_str());
    }
    for (int i = 0; i < (int)pos.size(); i++) {
        if (pos[i] < b.dim(i).min() || pos[i] > b.dim(i).max()) {
            throw nb::index_error(("Coordinate " + std::to_string(pos[i]) + " of dimension " +
                                   std::to_string(i) + " is outside Buffer '" + b.name() + "' ([" +
                                   std::to_string(b.dim(i).min()) + ", " +
                                   std::to_string(b.dim(i).max()) + "])")
                                      .c_str());
        }
    }
    return pos;
}

bool all_ints(nb::handle key) {
    if (nb::isinstance<nb::tuple>(key) || nb::isinstance<nb::list>(key)) {
        for (nb::handle h : key) {
            if (!nb::isinstance<nb::int_>(h)) return false;
        }
        return true;
    }
    return nb::isinstance<nb::int_>(key);
}

void *address_of(const Buffer<void> &b, const std::vector<int> &pos) {
    return b.get()->address_of(pos.data());
}

std::string shape_string(const Buffer<void> &b) {
    std::string s = "[";
    for (int i = 0; i < b.dimensions(); i++) {
        if (i) s += ",";
        s += "[" + std::to_string(b.dim(i).min()) + "," + std::to_string(b.dim(i).extent()) + "," +
             std::to_string(b.dim(i).stride()) + "]";
    }
    return s + "]";
}

/// The Buffer with its dimensions in the opposite order (a view).
Buffer<void> reversed_axes(const Buffer<void> &b) {
    std::vector<int> order;
    for (int i = b.dimensions() - 1; i >= 0; i--) order.push_back(i);
    return b.transposed(order);
}

} // namespace

void define_buffer(nb::module_ &m) {
    using B = Buffer<void>;
    using Dim = B::Dimension;
    nb::class_<Dim>(m, "BufferDimension", "The min, extent and stride of one dimension.")
        .def("min", &Dim::min)
        .def("extent", &Dim::extent)
        .def("stride", &Dim::stride)
        .def("max", &Dim::max);

    nb::class_<B> buffer(m, "Buffer", nb::type_slots(buffer_slots),
                         "A multi-dimensional array of one element type. Buffer(ndarray) wraps "
                         "NumPy memory without copying, with the axes reversed (the last NumPy "
                         "axis is dimension 0) unless reverse_axes=False.");
    buffer.def(nb::init<>())
        .def(nb::init<const B &>(), nb::arg("other"))
        .def(
            "__init__",
            [](B *self, const Type &t, const std::vector<int> &sizes, const std::string &name) {
                new (self) B(t, sizes, name);
            },
            nb::arg("type"), nb::arg("sizes"), nb::arg("name") = "")
        .def(
            "__init__",
            [](B *self, const Type &t, const std::vector<int> &sizes,
               const std::vector<int> &storage_order,
               const std::string &name) { new (self) B(t, sizes, storage_order, name); },
            nb::arg("type"), nb::arg("sizes"), nb::arg("storage_order"), nb::arg("name") = "")
        .def(
            "__init__",
            [](B *self, nb::handle obj, const std::string &name, bool reverse_axes) {
                new (self) B(buffer_from_object(obj, name, reverse_axes));
            },
            nb::arg("buffer"), nb::arg("name") = "", nb::arg("reverse_axes") = true)
        .def_static(
            "from_dlpack",
            [](nb::handle obj, const std::string &name, bool reverse_axes) {
                return from_dlpack(obj, name, reverse_axes);
            },
            nb::arg("tensor"), nb::arg("name") = "", nb::arg("reverse_axes") = true,
            "Wraps a DLPack tensor in CPU memory (PyTorch, JAX, NumPy) without copying.")
        .def(
            "__dlpack__",
            [](B &b, nb::handle stream, nb::handle max_version, nb::handle dl_device,
               nb::handle copy) { return to_dlpack(b); },
            nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
            nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none())
        .def("__dlpack_device__", [](const B &) { return std::make_pair(kDLCPU, 0); })
        .def_static(
            "make_scalar",
            [](const Type &t, const std::string &name) { return B::make_scalar(t, name); },
            nb::arg("type"), nb::arg("name") = "")
        .def_static(
            "make_interleaved",
            [](const Type &t, int width, int height, int channels, const std::string &name) {
                return B::make_interleaved(t, width, height, channels, name);
            },
            nb::arg("type"), nb::arg("width"), nb::arg("height"), nb::arg("channels"),
            nb::arg("name") = "")
        .def_static(
            "make_bounds_query",
            [](const Type &t, const std::vector<int> &sizes, const std::string &name) {
                // No memory: a pipeline given it reports the region it needs into its shape.
                std::vector<halide_dimension_t> dims;
                int stride = 1;
                for (int extent : sizes) {
                    dims.push_back(halide_dimension_t{0, extent, stride});
                    stride *= extent;
                }
                return B(Runtime::Buffer<void>(t, nullptr, (int)dims.size(), dims.data()), name);
            },
            nb::arg("type"), nb::arg("sizes"), nb::arg("name") = "",
            "A Buffer without memory (a bounds query) of the given shape.")
        .def("is_bounds_query", &B::is_bounds_query)
        .def_static(
            "make_with_shape_of",
            [](const B &src, const std::string &name) { return B::make_with_shape_of(src, name); },
            nb::arg("src"), nb::arg("name") = "")
        .def("defined", &B::defined)
        .def(
            "same_as", [](const B &a, const B &b) { return a.same_as(b); }, nb::arg("other"))
        .def("name", &B::name)
        .def("set_name", &B::set_name, nb::arg("name"))
        .def("type", &B::type)
        .def("dimensions", &B::dimensions)
        .def("dim", &B::dim, nb::arg("dimension"))
        .def("width", &B::width)
        .def("height", &B::height)
        .def("channels", &B::channels)
        .def("left", &B::left)
        .def("right", &B::right)
        .def("top", &B::top)
        .def("bottom", &B::bottom)
        .def("number_of_elements", &B::number_of_elements)
        .def("size_in_bytes", &B::size_in_bytes)
        .def("owns_host_memory", &B::owns_host_memory)
        .def(
            "contains",
            [](const B &b, const std::vector<int> &pos) {
                if ((int)pos.size() != b.dimensions()) return false;
                for (int i = 0; i < b.dimensions(); i++) {
                    if (pos[i] < b.dim(i).min() || pos[i] > b.dim(i).max()) return false;
                }
                return true;
            },
            nb::arg("coords"))
        .def("copy", &B::copy)
        .def(
            "copy_from", [](B &b, const B &src) { b.copy_from(src); }, nb::arg("src"))
        .def(
            "fill",
            [](B &b, nb::handle value) {
                with_element_type(b.type(), [&](auto *p) {
                    using T = std::remove_pointer_t<decltype(p)>;
                    T v = element_from_python<T>(value);
                    Buffer<T> typed = b;
                    typed.for_each_value([&](T &x) { x = v; });
                    b.set_host_dirty();
                });
            },
            nb::arg("value"))
        .def(
            "all_equal",
            [](const B &b, nb::handle value) {
                return with_element_type(b.type(), [&](auto *p) {
                    using T = std::remove_pointer_t<decltype(p)>;
                    T v = element_from_python<T>(value);
                    bool equal = true;
                    Buffer<T> typed = b;
                    typed.for_each_value([&](const T &x) { equal = equal && x == v; });
                    return equal;
                });
            },
            nb::arg("value"))
        .def("crop", nb::overload_cast<int, int, int>(&B::crop), nb::arg("dimension"),
             nb::arg("min"), nb::arg("extent"))
        .def("crop", nb::overload_cast<const std::vector<std::pair<int, int>> &>(&B::crop),
             nb::arg("rect"))
        .def("cropped", nb::overload_cast<int, int, int>(&B::cropped, nb::const_),
             nb::arg("dimension"), nb::arg("min"), nb::arg("extent"))
        .def("cropped",
             nb::overload_cast<const std::vector<std::pair<int, int>> &>(&B::cropped, nb::const_),
             nb::arg("rect"))
        .def("slice", nb::overload_cast<int, int>(&B::slice), nb::arg("dimension"), nb::arg("pos"))
        .def("slice", nb::overload_cast<int>(&B::slice), nb::arg("dimension"))
        .def("sliced", nb::overload_cast<int, int>(&B::sliced, nb::const_), nb::arg("dimension"),
             nb::arg("pos"))
        .def("sliced", nb::overload_cast<int>(&B::sliced, nb::const_), nb::arg("dimension"))
        .def("embed", &B::embed, nb::arg("dimension"), nb::arg("pos") = 0)
        .def("embedded", &B::embedded, nb::arg("dimension"), nb::arg("pos") = 0)
        .def("add_dimension", &B::add_dimension)
        .def("transpose", nb::overload_cast<int, int>(&B::transpose), nb::arg("d1"), nb::arg("d2"))
        .def("transpose", nb::overload_cast<const std::vector<int> &>(&B::transpose),
             nb::arg("order"))
        .def("transposed", nb::overload_cast<int, int>(&B::transposed, nb::const_), nb::arg("d1"),
             nb::arg("d2"))
        .def("transposed", nb::overload_cast<const std::vector<int> &>(&B::transposed, nb::const_),
             nb::arg("order"))
        .def("translate", nb::overload_cast<int, int>(&B::translate), nb::arg("dimension"),
             nb::arg("delta"))
        .def("translate", nb::overload_cast<const std::vector<int> &>(&B::translate),
             nb::arg("delta"))
        .def("translated", nb::overload_cast<int, int>(&B::translated, nb::const_),
             nb::arg("dimension"), nb::arg("delta"))
        .def("translated", nb::overload_cast<const std::vector<int> &>(&B::translated, nb::const_),
             nb::arg("delta"))
        .def(
            "set_min", [](B &b, const std::vector<int> &mins) { b.set_min(mins); }, nb::arg("mins"))
        .def("reverse_axes", &reversed_axes, "A view with the dimensions in the opposite order.")
        .def("copy_to_host", [](B &b) { return b.copy_to_host(); })
        .def("host_dirty", &B::host_dirty)
        .def("device_dirty", &B::device_dirty)
        .def("set_host_dirty", &B::set_host_dirty, nb::arg("dirty") = true)
        .def("set_device_dirty", &B::set_device_dirty, nb::arg("dirty") = true)
        .def("has_device_allocation", &B::has_device_allocation)
        .def(
            "__getitem__",
            [](const B &b, nb::handle key) -> nb::object {
                if (!all_ints(key)) return nb::cast(b(to_exprs(key)));
                std::vector<int> pos = coordinates(b, key);
                return with_element_type(b.type(), [&](auto *p) {
                    using T = std::remove_pointer_t<decltype(p)>;
                    return element_to_python(*(const T *)address_of(b, pos));
                });
            },
            nb::arg("key"))
        .def(
            "__setitem__",
            [](B &b, nb::handle key, nb::handle value) {
                std::vector<int> pos = coordinates(b, key);
                with_element_type(b.type(), [&](auto *p) {
                    using T = std::remove_pointer_t<decltype(p)>;
                    *(T *)address_of(b, pos) = element_from_python<T>(value);
                });
                b.set_host_dirty();
            },
            nb::arg("key"), nb::arg("value"))
        .def("__repr__", [](const B &b) {
            if (!b.defined()) return std::string("<undefined loom.Buffer>");
            return "<loom.Buffer '" + b.name() + "' of type " + type_to_string(b.type()) +
                   " shape:" + shape_string(b) + ">";
        });
}

} // namespace python
} // namespace loom
