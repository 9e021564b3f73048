// Task mode: each iteration processes one image channel by calling host
// functions of the user's module (with CUDA they would launch kernels; here
// the tool sees they only use the host, so mode(task) asks for task mode); the
// runtime runs each iteration on a worker holding a device lease.
// RUN: %e2e --out %t %s | FileCheck %s
#include <cstdio>
#include <vector>

struct Channel {
  std::vector<float> pixels;
  double checksum = 0;
};

void blur(Channel &c) {
  std::vector<float> copy = c.pixels;
  for (std::size_t k = 1; k + 1 < copy.size(); ++k)
    c.pixels[k] = (copy[k - 1] + copy[k] + copy[k + 1]) / 3.0f;
}

void measure(Channel &c) {
  double s = 0;
  for (std::size_t k = 0; k < c.pixels.size(); ++k)
    s += c.pixels[k] * double(k % 10);
  c.checksum = s;
}

int main() {
  std::vector<Channel> channels(6);
  for (std::size_t c = 0; c < channels.size(); ++c) {
    channels[c].pixels.resize(50000);
    for (std::size_t k = 0; k < 50000; ++k)
      channels[c].pixels[k] = float((k * (c + 3)) % 255);
  }
#pragma gpu_autopar for mode(task)
  for (std::size_t c = 0; c < channels.size(); ++c) {
    blur(channels[c]);
    measure(channels[c]);
  }
  for (const Channel &c : channels)
    std::printf("%.3f\n", c.checksum);
}
// CHECK: cpu: task-host-callee.cpp:34 mode=task backend=cpu iterations=6 devices=1
// CHECK: sim:1: task-host-callee.cpp:34 mode=task backend=sim iterations=6 devices=1
// CHECK: sim:3: task-host-callee.cpp:34 mode=task backend=sim iterations=6 devices=3
// CHECK: sim:4,speed=1:2:1:1: task-host-callee.cpp:34 mode=task backend=sim iterations=6 devices={{[34]}}
