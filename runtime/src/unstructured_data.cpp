// enter_data / exit_data / delete_data (gpu_autopar/data_region.h): the
// dynamic reference counts of the data environment's present sections
// (present_table.h), which data regions share, so that residency, halos,
// updates and reports are the same for both.
#include <gpu_autopar/data_region.h>

#include <cassert>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "present_table.h"
#include "runtime_state.h"

namespace gpu_autopar {
namespace {

using detail::present_entry;
using detail::presence;

std::string at(const loop_site& site) { return std::string(site.file) + ":" + std::to_string(site.line); }

enum class exit_rule {
  decrement, // exit data: one dynamic reference fewer
  finalize,  // exit data ... finalize: no dynamic reference left, copies out as a decrement would
  drop       // delete: no dynamic reference left, nothing copied
};

void exit_sections(const loop_site& site, std::initializer_list<region_section> sections, exit_rule rule) {
  detail::drain_queued_work(); // what loops left queued ends before results come back and copies are freed
  std::vector<detail::leaving_entry> leaving;
  {
    std::lock_guard<std::mutex> lock(detail::table_mutex());
    for (const region_section& s : sections)
      detail::require_not_partly_present(site, "exit data", s);
    for (const region_section& s : sections) {
      present_entry* e = nullptr;
      if (s.bytes == 0 || detail::lookup(s, &e) != presence::inside)
        continue; // not present: nothing to do, as in OpenMP
      if (rule != exit_rule::decrement)
        e->dynamic = 0;
      else if (e->dynamic > 0)
        --e->dynamic;
      assert(e->dynamic >= 0 && e->structured >= 0);
      const std::uint64_t from = std::uint64_t(static_cast<const unsigned char*>(s.host) - e->host);
      const bool copies = rule != exit_rule::drop && (s.kind == map_kind::from || s.kind == map_kind::tofrom);
      // Already leaving (named twice in one directive): copy the named part too.
      bool already = false;
      for (detail::leaving_entry& l : leaving)
        if (l.entry == e) {
          already = true;
          if (copies)
            l.copy_back.push_back({from, from + s.bytes});
        }
      if (!already && e->dynamic == 0 && e->structured == 0) {
        leaving.push_back({e, {}});
        if (copies)
          leaving.back().copy_back.push_back({from, from + s.bytes});
      }
    }
  }
  std::exception_ptr error;
  // In an MPI job every rank's host gets what the others wrote first (docs/mpi.md).
  detail::unmap_across_ranks(leaving, false, error);
  std::vector<std::vector<detail::byte_range>> copy_back;
  std::vector<std::unique_ptr<present_entry>> left;
  {
    std::lock_guard<std::mutex> lock(detail::table_mutex());
    left = detail::detach_unreferenced(leaving, copy_back);
  }
  detail::leave(left, copy_back, error);
  for (std::size_t k = 0; k < left.size(); ++k) {
    // One line per section, named after the construct that made it present
    // (an enter data's, usually).
    std::vector<std::unique_ptr<present_entry>> one;
    one.push_back(std::move(left[k]));
    detail::report_left(one.front()->site, one);
  }
  if (error)
    std::rethrow_exception(error);
}

} // namespace

void enter_data(const loop_site& site, std::initializer_list<region_section> sections) {
  std::lock_guard<std::mutex> lock(detail::table_mutex());
  for (const region_section& s : sections) {
    if (s.kind != map_kind::to && s.kind != map_kind::alloc)
      throw std::invalid_argument("gpu-autopar: " + at(site) + ": enter data maps 'to' or 'alloc' sections only");
    detail::require_not_partly_present(site, "enter data", s);
  }
  for (const region_section& s : sections) {
    if (s.bytes == 0)
      continue; // a zero-length section maps nothing
    present_entry* e = nullptr;
    if (detail::lookup(s, &e) == presence::absent)
      e = detail::make_present(site, s);
    ++e->dynamic; // present already: a reference more, nothing copied
  }
}

void exit_data(const loop_site& site, std::initializer_list<region_section> sections) {
  exit_sections(site, sections, exit_rule::decrement);
}

void exit_data(const loop_site& site, std::initializer_list<region_section> sections, finalize_t) {
  exit_sections(site, sections, exit_rule::finalize);
}

void delete_data(const loop_site& site, std::initializer_list<region_section> sections) {
  exit_sections(site, sections, exit_rule::drop);
}

} // namespace gpu_autopar
