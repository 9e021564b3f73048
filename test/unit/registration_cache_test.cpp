// The registration cache (runtime/src/host_pinning.h) through a fake table
// that records cudaHostRegister and cudaHostUnregister: ranges registered
// once and shared, gaps registered on their own, idle ranges kept until the
// limit, a range whose memory was unmapped registered again.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <vector>

#include "host_pinning.h"

namespace gpu_autopar {
namespace detail {
namespace {

struct fake_pins {
  std::map<std::uintptr_t, std::size_t> live; // start -> bytes
  int registers = 0, unregisters = 0;
  int refuse_with = 0; // the next register fails with this
};
fake_pins g_pins;

cuda_api pin_api() {
  cuda_api a{};
  a.host_register = [](void* p, std::size_t n) {
    if (int e = g_pins.refuse_with) {
      g_pins.refuse_with = 0;
      return e;
    }
    const auto lo = reinterpret_cast<std::uintptr_t>(p);
    for (const auto& [start, bytes] : g_pins.live)
      if (start < lo + n && lo < start + bytes)
        return 712; // cudaErrorHostMemoryAlreadyRegistered
    g_pins.live[lo] = n;
    ++g_pins.registers;
    return 0;
  };
  a.host_unregister = [](void* p) {
    ++g_pins.unregisters;
    return g_pins.live.erase(reinterpret_cast<std::uintptr_t>(p)) ? 0 : 713;
  };
  a.get_last_error = [] { return 0; };
  return a;
}

struct RegistrationCache : ::testing::Test {
  const std::size_t page = std::size_t(::sysconf(_SC_PAGESIZE));
  cuda_api api = pin_api();
  unsigned char* mem = nullptr;
  const std::size_t pages = 16;
  void SetUp() override {
    g_pins = fake_pins();
    mem = static_cast<unsigned char*>(::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(mem, MAP_FAILED);
  }
  void TearDown() override {
    if (mem)
      ::munmap(mem, pages * page);
  }
  std::pair<const void*, std::size_t> at(std::size_t first_page, std::size_t n_pages) const {
    return {mem + first_page * page, n_pages * page};
  }
};

TEST_F(RegistrationCache, RepeatedLoopsOverTheSameMemoryRegisterItOnce) {
  registration_cache cache(api, std::size_t(1) << 30);
  for (int loop = 0; loop < 10; ++loop) {
    pin_hold h = cache.hold({at(0, 4), at(8, 4)}); // x and y of a saxpy
  }
  EXPECT_EQ(g_pins.registers, 2);
  EXPECT_EQ(g_pins.unregisters, 0);
  EXPECT_EQ(cache.idle_bytes(), 8 * page);
  cache.release_all();
  EXPECT_EQ(g_pins.unregisters, 2);
  EXPECT_TRUE(g_pins.live.empty());
}

TEST_F(RegistrationCache, OverlappingAndUnalignedRangesAreMergedToWholePages) {
  registration_cache cache(api, std::size_t(1) << 30);
  // Two maps of one array, neither page-aligned, touching one page.
  pin_hold h = cache.hold({{mem + 10, page}, {mem + page + 20, 2 * page}});
  EXPECT_EQ(g_pins.registers, 1);
  EXPECT_EQ(g_pins.live.begin()->first, reinterpret_cast<std::uintptr_t>(mem));
  EXPECT_EQ(g_pins.live.begin()->second, 4 * page);
}

TEST_F(RegistrationCache, AWiderUseRegistersOnlyTheGapsAndSharesTheRest) {
  registration_cache cache(api, std::size_t(1) << 30);
  pin_hold a = cache.hold({at(2, 2)});
  pin_hold b = cache.hold({at(0, 8)}); // around a: [0, 2) and [4, 8) are new
  EXPECT_EQ(g_pins.registers, 3);
  EXPECT_EQ(cache.registered_bytes(), 8 * page);
  a.release(); // b still holds every page: nothing idle
  EXPECT_EQ(cache.idle_bytes(), 0u);
  b.release();
  EXPECT_EQ(cache.idle_bytes(), 8 * page);
  EXPECT_EQ(g_pins.unregisters, 0);
}

// Two arrays sharing a page (a's last, b's first) are registered as two
// ranges that touch: a copy across the seam is cut there, so that each piece
// is in one registration; so is one running into unregistered memory.
TEST_F(RegistrationCache, ACopyAcrossTwoRegistrationsIsCutWhereTheyMeet) {
  registration_cache cache(api, std::size_t(1) << 30);
  pin_hold a = cache.hold({{mem + 100, 3 * page}}); // pages [0, 4)
  pin_hold b = cache.hold({{mem + 3 * page + 200, 2 * page}}); // page 3 is a's: [4, 6) registered
  ASSERT_EQ(g_pins.registers, 2);
  std::vector<std::size_t> cuts;
  cache.boundaries(mem + 2 * page, 3 * page, cuts); // from a's pages into b's and beyond
  EXPECT_EQ(cuts, (std::vector<std::size_t>{2 * page}));
  cuts.clear();
  cache.boundaries(mem + 5 * page, 2 * page, cuts); // b's last page, then unregistered memory
  EXPECT_EQ(cuts, (std::vector<std::size_t>{page}));
  cuts.clear();
  cache.boundaries(mem + 100, 3 * page, cuts); // all in a's
  EXPECT_TRUE(cuts.empty());
  cuts.clear();
  cache.boundaries(mem + 7 * page, 4 * page, cuts); // none registered
  EXPECT_TRUE(cuts.empty());
  cuts.clear();
  cache.boundaries(mem + 2 * page, 5 * page, cuts); // across both, and out
  EXPECT_EQ(cuts, (std::vector<std::size_t>{2 * page, 4 * page}));
}

TEST_F(RegistrationCache, AHeldRangeIsNeverUnregisteredButIdleOnesBeyondTheLimitAre) {
  registration_cache cache(api, 4 * page); // keeps at most 4 idle pages
  pin_hold held = cache.hold({at(0, 4)});
  { pin_hold old = cache.hold({at(4, 4)}); }
  { pin_hold newer = cache.hold({at(8, 4)}); } // 8 idle pages: the oldest idle range goes
  EXPECT_EQ(g_pins.unregisters, 1);
  EXPECT_EQ(g_pins.live.count(reinterpret_cast<std::uintptr_t>(mem + 4 * page)), 0u);
  EXPECT_EQ(g_pins.live.count(reinterpret_cast<std::uintptr_t>(mem)), 1u); // held
  EXPECT_EQ(cache.idle_bytes(), 4 * page);
}

TEST_F(RegistrationCache, ShortOfPageLockedMemoryItGivesBackWhatIsIdleAndTriesAgain) {
  registration_cache cache(api, std::size_t(1) << 30);
  { pin_hold idle = cache.hold({at(0, 4)}); }
  g_pins.refuse_with = 2; // cudaErrorMemoryAllocation
  pin_hold h = cache.hold({at(8, 4)});
  EXPECT_EQ(g_pins.unregisters, 1);
  EXPECT_EQ(g_pins.live.count(reinterpret_cast<std::uintptr_t>(mem + 8 * page)), 1u);
}

TEST_F(RegistrationCache, ARangeTheRuntimeRefusesStaysPageableAndIsAskedForAgainLater) {
  registration_cache cache(api, std::size_t(1) << 30);
  g_pins.refuse_with = 712; // the program registered it itself
  { pin_hold h = cache.hold({at(0, 4)}); }
  EXPECT_EQ(cache.registered_bytes(), 0u);
  { pin_hold h = cache.hold({at(0, 4)}); }
  EXPECT_EQ(g_pins.registers, 1);
  EXPECT_EQ(cache.registered_bytes(), 4 * page);
}

TEST_F(RegistrationCache, AnIdleRangeWhoseMemoryWasUnmappedIsNotReusedButRegisteredAgain) {
  registration_cache cache(api, std::size_t(1) << 30);
  { pin_hold h = cache.hold({at(0, 4)}); }
  ::munmap(mem, 4 * page); // the program freed the array
  pin_hold h = cache.hold({at(0, 4)});
  EXPECT_EQ(g_pins.unregisters, 1) << "the stale registration was kept";
  EXPECT_EQ(g_pins.registers, 2);
}

} // namespace
} // namespace detail
} // namespace gpu_autopar
