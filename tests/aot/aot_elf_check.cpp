// Checks an AOT output for another architecture without running it: the ELF header of an
// object (or of each member of a GNU archive) says 64-bit little-endian with the expected
// e_machine, and its symbol table defines each named global symbol.
// Usage: aot_elf_check <machine> <file.o|file.a> <symbol>...   Prints "N passed, N failed".
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace {

int passed = 0, failed = 0;

void check(bool ok, const std::string &what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAILED: %s\n", what.c_str());
    }
}

template <typename T>
T read(const std::string &bytes, size_t offset) {
    T v{};
    if (offset + sizeof(T) <= bytes.size()) memcpy(&v, bytes.data() + offset, sizeof(T));
    return v;
}

/// Checks one ELF file's header; adds its defined global symbols to `defined`.
void check_elf(const std::string &elf, const std::string &name, int machine,
               std::set<std::string> &defined) {
    check(elf.size() > 64 && elf.compare(0, 4,
                                         "\x7f"
                                         "ELF") == 0,
          name + " is an ELF file");
    if (failed) return;
    check(elf[4] == 2, name + " is ELFCLASS64");
    check(elf[5] == 1, name + " is little-endian");
    check(read<uint16_t>(elf, 16) == 1, name + " is relocatable (ET_REL)");
    check(read<uint16_t>(elf, 18) == machine, name + " has e_machine " + std::to_string(machine) +
                                                  " (found " +
                                                  std::to_string(read<uint16_t>(elf, 18)) + ")");
    uint64_t shoff = read<uint64_t>(elf, 40);
    uint16_t shentsize = read<uint16_t>(elf, 58), shnum = read<uint16_t>(elf, 60);
    for (int i = 0; i < shnum; i++) {
        size_t sh = shoff + (size_t)i * shentsize;
        if (read<uint32_t>(elf, sh + 4) != 2) continue; // SHT_SYMTAB
        uint64_t off = read<uint64_t>(elf, sh + 24), size = read<uint64_t>(elf, sh + 32);
        uint32_t link = read<uint32_t>(elf, sh + 40);
        uint64_t entsize = read<uint64_t>(elf, sh + 56);
        uint64_t strtab = read<uint64_t>(elf, shoff + (size_t)link * shentsize + 24);
        for (uint64_t s = off; entsize && s + entsize <= off + size; s += entsize) {
            uint32_t name_off = read<uint32_t>(elf, s);
            uint8_t info = read<uint8_t>(elf, s + 4);
            uint16_t shndx = read<uint16_t>(elf, s + 6);
            int bind = info >> 4; // 1 global, 2 weak
            if (shndx != 0 && (bind == 1 || bind == 2)) {
                defined.insert(std::string(elf.c_str() + strtab + name_off));
            }
        }
    }
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s <machine> <file> <symbol>...\n", argv[0]);
        return 2;
    }
    int machine = atoi(argv[1]);
    std::string path = argv[2];
    std::ifstream f(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    check(!bytes.empty(), path + " exists and is not empty");
    std::set<std::string> defined;
    if (bytes.compare(0, 8, "!<arch>\n") == 0) {
        // GNU archive: 60-byte member headers (name 16, ..., size 10 at 48), 2-aligned data.
        size_t pos = 8;
        int objects = 0;
        bool symbol_index = false;
        while (pos + 60 <= bytes.size()) {
            std::string member = bytes.substr(pos, 16);
            size_t size = strtoul(bytes.substr(pos + 48, 10).c_str(), nullptr, 10);
            std::string data = bytes.substr(pos + 60, size);
            if (member.compare(0, 2, "/ ") == 0) {
                symbol_index = true;
            } else if (member.compare(0, 2, "//") != 0) {
                check_elf(data, path + "(" + member.substr(0, member.find('/')) + ")", machine,
                          defined);
                objects++;
            }
            pos += 60 + size + (size & 1);
        }
        check(symbol_index, path + " has a symbol index (ranlib)");
        check(objects == 1, path + " has one object member");
    } else {
        check_elf(bytes, path, machine, defined);
    }
    for (int i = 3; i < argc; i++) {
        check(defined.count(argv[i]) == 1, path + " defines " + argv[i]);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
