// enter_data / exit_data / delete_data (gpu_autopar/data_region.h): each
// entered section is a data region of its own, kept alive by a count of
// references instead of a block's scope, so that residency, halos, updates
// and reports are the data regions' own.
#include <gpu_autopar/data_region.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpu_autopar {
namespace {

struct entered {
  const unsigned char* host;
  std::size_t bytes;
  long references;
  std::unique_ptr<data_region> region;
};

// Never destroyed: data entered and not exited outlives the devices at
// program end, and must not be copied back or freed then.
std::mutex& entries_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::vector<entered>& entries() {
  static auto* v = new std::vector<entered>;
  return *v;
}

const unsigned char* bytes_of(const region_section& s) { return static_cast<const unsigned char*>(s.host); }

std::string at(const loop_site& site) { return std::string(site.file) + ":" + std::to_string(site.line); }

// The entry for exactly this section; one that overlaps it only in part is
// an error (its references could not be counted).
entered* find(const loop_site& site, const region_section& s, const char* what) {
  for (entered& e : entries()) {
    if (e.host == bytes_of(s) && e.bytes == s.bytes)
      return &e;
    if (e.host < bytes_of(s) + s.bytes && bytes_of(s) < e.host + e.bytes)
      throw std::invalid_argument("gpu-autopar: " + at(site) + ": " + what +
                                  " names a section that overlaps an entered section only in part; name the "
                                  "section exactly as it was entered");
  }
  return nullptr;
}

// Drops `e`: copies back if asked, then frees the devices' copies.
void leave(entered& e, bool copy_back) {
  std::unique_ptr<data_region> region = std::move(e.region);
  if (copy_back)
    update_host(region_section{map_kind::tofrom, e.host, e.bytes});
  std::vector<entered>& v = entries();
  v.erase(v.begin() + (&e - v.data()));
  region.reset(); // an `alloc` region: frees without copying
}

void exit_sections(const loop_site& site, std::initializer_list<region_section> sections, bool all) {
  std::lock_guard<std::mutex> lock(entries_mutex());
  for (const region_section& s : sections) {
    if (s.bytes == 0)
      continue;
    entered* e = find(site, s, all ? "delete data" : "exit data");
    if (!e)
      continue;
    if (all || --e->references == 0)
      leave(*e, !all && (s.kind == map_kind::from || s.kind == map_kind::tofrom));
  }
}

} // namespace

void enter_data(const loop_site& site, std::initializer_list<region_section> sections) {
  std::lock_guard<std::mutex> lock(entries_mutex());
  for (const region_section& s : sections) {
    if (s.bytes == 0)
      continue;
    if (s.kind != map_kind::to && s.kind != map_kind::alloc)
      throw std::invalid_argument("gpu-autopar: " + at(site) + ": enter data maps 'to' or 'alloc' sections only");
    if (entered* e = find(site, s, "enter data")) {
      ++e->references;
      continue;
    }
    // The region never copies back by itself (`alloc`, or `to`): exit_data
    // decides, with the kind the exit names.
    auto region = std::make_unique<data_region>(site, std::initializer_list<region_section>{s});
    entries().push_back({bytes_of(s), s.bytes, 1, std::move(region)});
  }
}

void exit_data(const loop_site& site, std::initializer_list<region_section> sections) {
  exit_sections(site, sections, /*all=*/false);
}

void delete_data(const loop_site& site, std::initializer_list<region_section> sections) {
  exit_sections(site, sections, /*all=*/true);
}

} // namespace gpu_autopar
