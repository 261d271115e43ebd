// The C++ baseline of bench/firestore: Google's protobuf runtime (Debian's libprotobuf-dev) parsing the records of
// a Firestore export's `output-N` file, with code that `protoc --cpp_out` generates from
// Protos/firestore/entity.proto at bench time (never committed).
//
// Reads the whole file into memory first (not timed), then, timed: walks the LevelDB log itself (32 KiB blocks,
// 7-byte headers: masked CRC-32C little endian, length little endian u16, type 1 FULL / 2 FIRST / 3 MIDDLE /
// 4 LAST; block trailers of fewer than 7 bytes skipped), checks every fragment's CRC-32C, joins fragmented
// records, parses each record with EntityProto::ParseFromArray and walks the parsed entity once: its key's path
// elements and every property's name, meaning and value (the bytes of a map, meaning ENTITY_PROTO, parsed as the
// EntityProto they hold, recursively, as Fanout decodes maps), summing lengths and values into a checksum that is
// printed, so that nothing can be optimized away.
//
// Usage: firestore_protobuf FILE [--crc slice8|sse42] [--keep] [--no-parse]
//   --crc slice8  CRC-32C by slicing-by-8 tables, the kind Fanout's Swift CRC32C is (the default)
//   --crc sse42   CRC-32C by the SSE4.2 crc32 instruction, 8 bytes at a time
//   --keep        a new EntityProto per record, kept on one arena until the end (as Fanout keeps every
//                 document); the default reuses one message per nesting depth, the usual way to stream records
//   --no-parse    the log walk and CRC checks alone
// Prints one line: `seconds S cpu S records N nested N bytes N fragmented N checksum N peak-rss-kb N`, the
// seconds being the timed part alone (wall, CLOCK_MONOTONIC; cpu, CLOCK_PROCESS_CPUTIME_ID). Exits 2 on a damaged
// log or a record that does not parse.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <google/protobuf/arena.h>

#include "entity.pb.h"

using storage_onestore_v3::EntityProto;
using storage_onestore_v3::Property;

namespace {

// CRC-32C, slicing-by-8, the reflected polynomial 0x82F63B78: the same tables and loop as
// Sources/FanoutImport/Firestore/CRC32C.swift.
uint32_t table[8][256];

void make_tables() {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t crc = n;
    for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
    table[0][n] = crc;
  }
  for (int n = 0; n < 256; n++)
    for (int k = 1; k < 8; k++) table[k][n] = (table[k - 1][n] >> 8) ^ table[0][table[k - 1][n] & 0xFF];
}

uint32_t crc_slice8(const uint8_t* p, size_t n, uint32_t crc) {
  crc = ~crc;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint32_t low, high;
    memcpy(&low, p + i, 4);
    memcpy(&high, p + i + 4, 4);
    low ^= crc;
    crc = table[7][low & 0xFF] ^ table[6][(low >> 8) & 0xFF] ^ table[5][(low >> 16) & 0xFF] ^ table[4][low >> 24] ^
          table[3][high & 0xFF] ^ table[2][(high >> 8) & 0xFF] ^ table[1][(high >> 16) & 0xFF] ^ table[0][high >> 24];
  }
  for (; i < n; i++) crc = table[0][(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

__attribute__((target("sse4.2"))) uint32_t crc_sse42(const uint8_t* p, size_t n, uint32_t crc) {
  uint64_t c = ~crc;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    memcpy(&v, p + i, 8);
    c = __builtin_ia32_crc32di(c, v);
  }
  uint32_t c32 = static_cast<uint32_t>(c);
  for (; i < n; i++) c32 = __builtin_ia32_crc32qi(c32, p[i]);
  return ~c32;
}

uint32_t masked(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u; }

double now(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

[[noreturn]] void fail(const char* what, size_t offset) {
  fprintf(stderr, "firestore_protobuf: %s at byte %zu\n", what, offset);
  exit(2);
}

struct Totals {
  uint64_t checksum = 0;
  uint64_t nested = 0;
};

// Parses and walks; `pool` holds a reused message per depth (or null with --keep, then `arena` allocates).
struct Parser {
  bool keep = false;
  google::protobuf::Arena* arena = nullptr;
  std::vector<std::unique_ptr<EntityProto>> pool;
  Totals totals;

  EntityProto* message(size_t depth) {
    if (keep) return google::protobuf::Arena::CreateMessage<EntityProto>(arena);
    while (pool.size() <= depth) pool.emplace_back(new EntityProto);
    return pool[depth].get();
  }

  void property(const Property& p, size_t depth, size_t at) {
    uint64_t& s = totals.checksum;
    s += p.name().size() + static_cast<uint64_t>(p.meaning()) + (p.multiple() ? 1 : 0);
    if (!p.has_value()) return;
    const auto& v = p.value();
    s += static_cast<uint64_t>(v.int64value()) + (v.booleanvalue() ? 1 : 0);
    double d = v.doublevalue();
    uint64_t bits;
    memcpy(&bits, &d, 8);
    s += bits;
    if (v.has_stringvalue()) {
      const std::string& bytes = v.stringvalue();
      s += bytes.size();
      if (p.meaning() == Property::ENTITY_PROTO) {
        totals.nested++;
        entity(bytes.data(), bytes.size(), depth + 1, at);
      }
    }
    if (v.has_pointvalue()) {
      double xy[2] = {v.pointvalue().x(), v.pointvalue().y()};
      uint64_t b[2];
      memcpy(b, xy, 16);
      s += b[0] + b[1];
    }
    if (v.has_referencevalue()) {
      for (const auto& e : v.referencevalue().pathelement())
        s += e.type().size() + e.name().size() + static_cast<uint64_t>(e.id());
    }
  }

  void entity(const char* data, size_t size, size_t depth, size_t at) {
    if (depth > 100) fail("maps nested more than 100 deep", at);
    EntityProto* e = message(depth);
    if (!e->ParseFromArray(data, static_cast<int>(size))) fail("a record that does not parse", at);
    uint64_t& s = totals.checksum;
    if (e->has_key())
      for (const auto& el : e->key().path().element()) s += el.type().size() + el.name().size() + el.id();
    for (const auto& p : e->property()) property(p, depth, at);
    for (const auto& p : e->raw_property()) property(p, depth, at);
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: firestore_protobuf FILE [--crc slice8|sse42] [--keep] [--no-parse]\n");
    return 64;
  }
  bool sse = false, keep = false, parse = true;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--crc") && i + 1 < argc) {
      sse = !strcmp(argv[++i], "sse42");
    } else if (!strcmp(argv[i], "--keep")) {
      keep = true;
    } else if (!strcmp(argv[i], "--no-parse")) {
      parse = false;
    } else {
      fprintf(stderr, "firestore_protobuf: unknown argument %s\n", argv[i]);
      return 64;
    }
  }
  if (sse && !__builtin_cpu_supports("sse4.2")) {
    fprintf(stderr, "firestore_protobuf: this CPU has no SSE4.2\n");
    return 64;
  }
  GOOGLE_PROTOBUF_VERIFY_VERSION;

  // The file, read whole (not timed).
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) {
    perror(argv[1]);
    return 66;
  }
  struct stat st;
  fstat(fd, &st);
  std::vector<uint8_t> file(static_cast<size_t>(st.st_size));
  for (size_t got = 0; got < file.size();) {
    ssize_t n = read(fd, file.data() + got, file.size() - got);
    if (n <= 0) {
      perror(argv[1]);
      return 66;
    }
    got += static_cast<size_t>(n);
  }
  close(fd);
  make_tables();
  uint32_t (*crc)(const uint8_t*, size_t, uint32_t) = sse ? crc_sse42 : crc_slice8;

  google::protobuf::Arena arena;
  Parser parser;
  parser.keep = keep;
  parser.arena = &arena;
  const size_t block = 32 * 1024, header = 7, size = file.size();
  const uint8_t* bytes = file.data();
  uint64_t records = 0, fragmented = 0, recordBytes = 0;
  std::string scratch;
  size_t start = SIZE_MAX;  // the first fragment's header of a record being put together

  double wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_PROCESS_CPUTIME_ID);
  size_t offset = 0;
  while (true) {
    size_t inBlock = block - offset % block;
    if (inBlock < header) {
      size_t end = offset + inBlock < size ? offset + inBlock : size;
      for (size_t i = offset; i < end; i++)
        if (bytes[i] != 0) fail("a block's trailer holds a nonzero byte", i);
      offset = end;
      inBlock = block;
    }
    if (offset == size) {
      if (start != SIZE_MAX) fail("the file ends inside a record", start);
      break;
    }
    if (offset + header > size) fail("the file ends inside a record's header", offset);
    uint32_t stored;
    memcpy(&stored, bytes + offset, 4);
    size_t length = bytes[offset + 4] | static_cast<size_t>(bytes[offset + 5]) << 8;
    uint8_t type = bytes[offset + 6];
    if (type == 0 && length == 0 && stored == 0) {  // a preallocated, never written rest of the block
      if (start != SIZE_MAX) fail("a record breaks off", offset);
      size_t end = offset + inBlock < size ? offset + inBlock : size;
      for (size_t i = offset; i < end; i++)
        if (bytes[i] != 0) fail("a zero-filled stretch of a block holds a nonzero byte", i);
      offset = end;
      continue;
    }
    if (type < 1 || type > 4) fail("a record header has an unknown type", offset);
    if (length > inBlock - header) fail("a fragment runs past its block", offset);
    if (offset + header + length > size) fail("the file ends inside a record", offset);
    const uint8_t* data = bytes + offset + header;
    if (masked(crc(data, length, crc(&type, 1, 0))) != stored) fail("a record's checksum is wrong", offset);
    size_t here = offset;
    offset += header + length;
    const char* record = nullptr;
    size_t recordSize = 0;
    switch (type) {
      case 1:
        if (start != SIZE_MAX) fail("a whole record where a fragmented one goes on", here);
        record = reinterpret_cast<const char*>(data);
        recordSize = length;
        break;
      case 2:
        if (start != SIZE_MAX) fail("a record starts where a fragmented one goes on", here);
        start = here;
        scratch.assign(reinterpret_cast<const char*>(data), length);
        continue;
      default:
        if (start == SIZE_MAX) fail("a record's later fragment without its first", here);
        scratch.append(reinterpret_cast<const char*>(data), length);
        if (type == 3) continue;
        record = scratch.data();
        recordSize = scratch.size();
        start = SIZE_MAX;
        fragmented++;
    }
    records++;
    recordBytes += recordSize;
    if (parse) parser.entity(record, recordSize, 0, here);
  }
  wall = now(CLOCK_MONOTONIC) - wall;
  cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;

  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  printf("seconds %.4f cpu %.4f records %llu nested %llu bytes %llu fragmented %llu checksum %llu peak-rss-kb %ld\n", wall,
         cpu, static_cast<unsigned long long>(records), static_cast<unsigned long long>(parser.totals.nested),
         static_cast<unsigned long long>(recordBytes), static_cast<unsigned long long>(fragmented),
         static_cast<unsigned long long>(parser.totals.checksum), usage.ru_maxrss);
  return 0;
}
