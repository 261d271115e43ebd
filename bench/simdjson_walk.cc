// The C++ limit of bench/limits: simdjson (Debian's libsimdjson-dev) parsing a JSON export into its DOM and walking
// every key and value once, on one core: what a fast JSON library needs to have seen all of an export, beside
// `fanout check`, which reads, derives and checks it.
//
// Loads the whole file into simdjson's padded buffer first (timed apart: `load`), then, timed: the DOM parse
// (`dom::parser::parse`) and a walk of the tree that visits every object's keys and every value (strings' bytes
// counted, numbers summed, booleans and nulls counted) into a checksum that is printed, so that nothing can be
// optimized away.
//
// Usage: simdjson_walk FILE
// Prints one line: `load S parse S walk S seconds S bytes N keys N values N checksum N peak-rss-kb N`, `seconds` being
// parse and walk together (wall, CLOCK_MONOTONIC). Exits 2 when the file is not JSON.
#include <sys/resource.h>
#include <time.h>

#include <cstdint>
#include <cstdio>

#include <simdjson.h>

using namespace simdjson;

namespace {

double now() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

struct Walk {
    uint64_t keys = 0, values = 0, checksum = 0;

    void visit(dom::element element) {
        values++;
        switch (element.type()) {
            case dom::element_type::OBJECT:
                for (dom::key_value_pair field : dom::object(element)) {
                    keys++;
                    checksum += field.key.size() + uint8_t(field.key.empty() ? 0 : field.key[0]);
                    visit(field.value);
                }
                break;
            case dom::element_type::ARRAY:
                for (dom::element item : dom::array(element)) visit(item);
                break;
            case dom::element_type::STRING: {
                std::string_view text = element.get_string().value_unsafe();
                checksum += text.size() + uint8_t(text.empty() ? 0 : text[0]);
                break;
            }
            case dom::element_type::INT64: checksum += uint64_t(element.get_int64().value_unsafe()); break;
            case dom::element_type::UINT64: checksum += element.get_uint64().value_unsafe(); break;
            case dom::element_type::DOUBLE: checksum += uint64_t(element.get_double().value_unsafe()); break;
            case dom::element_type::BOOL: checksum += element.get_bool().value_unsafe() ? 3 : 5; break;
            case dom::element_type::NULL_VALUE: checksum += 7; break;
        }
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: simdjson_walk FILE\n");
        return 2;
    }
    double start = now();
    padded_string json;
    if (auto error = padded_string::load(argv[1]).get(json)) {
        std::fprintf(stderr, "%s: %s\n", argv[1], error_message(error));
        return 2;
    }
    double loaded = now();
    dom::parser parser;
    dom::element root;
    if (auto error = parser.parse(json).get(root)) {
        std::fprintf(stderr, "%s: %s\n", argv[1], error_message(error));
        return 2;
    }
    double parsed = now();
    Walk walk;
    walk.visit(root);
    double walked = now();
    rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf(
        "load %.4f parse %.4f walk %.4f seconds %.4f bytes %zu keys %llu values %llu checksum %llu peak-rss-kb %ld\n",
        loaded - start, parsed - loaded, walked - parsed, walked - loaded, json.size(),
        (unsigned long long)walk.keys, (unsigned long long)walk.values, (unsigned long long)walk.checksum,
        usage.ru_maxrss);
    return 0;
}
