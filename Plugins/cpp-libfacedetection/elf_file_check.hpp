// A pre-flight check of a shared library before dlopen: glibc's loader maps each loadable
// segment and clears what lies past the file's end, so a TRUNCATED .so kills the process
// with SIGBUS inside dlopen instead of failing. Checking that the ELF header and program
// headers, and every segment's bytes, lie inside the file turns that into a message.
#pragma once
#include <elf.h>
#include <sys/stat.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace yuface {

/// Throws std::runtime_error naming `path` unless it is a complete 64-bit x86-64 ELF file.
inline void check_elf_file(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) throw std::runtime_error("cannot open library '" + path + "': " + std::strerror(errno));
    struct stat st;
    Elf64_Ehdr header;
    bool read_header = fstat(fileno(f), &st) == 0 && std::fread(&header, sizeof header, 1, f) == 1;
    auto fail = [&](const std::string &why) {
        std::fclose(f);
        throw std::runtime_error("library '" + path + "' " + why);
    };
    if (!read_header || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) fail("is not an ELF shared library");
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_machine != EM_X86_64)
        fail("is not built for x86-64 (64-bit)");
    const uint64_t size = (uint64_t)st.st_size;
    if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phoff > size ||
        (uint64_t)header.e_phnum * sizeof(Elf64_Phdr) > size - header.e_phoff)
        fail("is truncated or damaged (program headers outside the file)");
    std::vector<Elf64_Phdr> segments(header.e_phnum);
    if (std::fseek(f, (long)header.e_phoff, SEEK_SET) != 0 ||
        std::fread(segments.data(), sizeof(Elf64_Phdr), segments.size(), f) != segments.size())
        fail("is truncated or damaged (cannot read its program headers)");
    for (const Elf64_Phdr &s : segments) {
        if (s.p_offset > size || s.p_filesz > size - s.p_offset)
            fail("is truncated: a segment ends at byte " + std::to_string(s.p_offset + s.p_filesz) + " of " +
                 std::to_string(size));
    }
    std::fclose(f);
}

}  // namespace yuface
