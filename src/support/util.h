#ifndef LOOM_SUPPORT_UTIL_H
#define LOOM_SUPPORT_UTIL_H

/// \file Small utilities shared by every layer.

#include <cstdint>
#include <string>
#include <vector>

namespace loom {
namespace internal {

/// A name no other call returns: prefix followed by a number ("v12"). Used for anonymous Vars,
/// Funcs and RDoms; Halide's anonymous names have the same shape.
std::string unique_name(char prefix);
/// `base` made unique by appending "$<n>" when it was returned before, or always when it is one
/// character and digits (as Halide: "f", "f$1"; "f1$0", "f1$1"; "blur1"). Used for Funcs named by
/// the user, so two Funcs named "f" stay distinct and none equals an anonymous one.
std::string unique_name(const std::string &base);

bool starts_with(const std::string &s, const std::string &prefix);
/// s with every character that can't appear in a C identifier replaced by '_' ("f$1" -> "f_1").
std::string c_identifier(const std::string &s);
bool ends_with(const std::string &s, const std::string &suffix);
std::vector<std::string> split_string(const std::string &s, const std::string &delim);

/// The value of environment variable `name`, or "" when unset.
std::string get_env(const char *name);

} // namespace internal
} // namespace loom

#endif
