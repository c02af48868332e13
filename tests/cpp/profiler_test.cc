// Tests of the profiler (csrc/autograd/profiler.h): forward ops and backward nodes with their
// shapes and sequence numbers, self and total times, the summary table and the Chrome trace.
// tests/cpp/profiler_trace_test.py parses the trace JSON; tests/flags checks DONT_PROFILE.
#include "csrc/autograd/profiler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "csrc/autograd/engine.h"
#include "csrc/generated/VariableType.h"
#include "tests/cpp/test_util.h"

namespace gradgen {
namespace {

namespace profiler = autograd::profiler;
using profiler::Event;

std::vector<const Event*> named(const std::vector<Event>& events, const std::string& name) {
  std::vector<const Event*> out;
  for (const Event& e : events) {
    if (e.name == name) out.push_back(&e);
  }
  return out;
}

TEST(Profiler, RecordsForwardOpsAndBackwardNodesLinkedBySequenceNumber) {
  Tensor x = randn({2, 3}, 0);
  Tensor w = test_util::leaf({3, 4}, 1);
  profiler::Profile prof;
  Tensor loss = sum(tanh(mm(x, w)));
  loss.backward();
  const std::vector<Event>& events = prof.events();

  // The forward mm, then the one MmBackward0's formula calls for w's gradient, inside the node.
  auto mms = named(events, "mm");
  ASSERT_EQ(mms.size(), 2u);
  EXPECT_EQ(mms[0]->depth, 0u);
  EXPECT_EQ(mms[0]->kind, Event::Kind::kOp);
  EXPECT_EQ(mms[0]->input_shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {3, 4}}));
  EXPECT_LE(mms[0]->start_ns, mms[0]->end_ns);
  auto mm_backward = named(events, "MmBackward0");
  ASSERT_EQ(mm_backward.size(), 1u);
  EXPECT_EQ(mm_backward[0]->kind, Event::Kind::kBackward);
  EXPECT_GE(mms[0]->sequence_nr, 0);
  EXPECT_EQ(mm_backward[0]->sequence_nr, mms[0]->sequence_nr);
  EXPECT_EQ(mm_backward[0]->input_shapes, (std::vector<std::vector<int64_t>>{{2, 4}}));
  EXPECT_EQ(mms[1]->depth, mm_backward[0]->depth + 1);
  EXPECT_GE(mms[1]->start_ns, mm_backward[0]->start_ns);
  EXPECT_LE(mms[1]->end_ns, mm_backward[0]->end_ns);
  // Each forward op links to its own node, and the backward runs after the forward.
  auto tanhs = named(events, "tanh");
  auto tanh_backward = named(events, "TanhBackward0");
  ASSERT_EQ(tanhs.size(), 1u);
  ASSERT_EQ(tanh_backward.size(), 1u);
  EXPECT_EQ(tanh_backward[0]->sequence_nr, tanhs[0]->sequence_nr);
  EXPECT_NE(tanhs[0]->sequence_nr, mms[0]->sequence_nr);
  EXPECT_GT(mm_backward[0]->start_ns, tanhs[0]->end_ns);
  // The leaf's AccumulateGrad runs, with no link to a forward op.
  auto acc = named(events, "AccumulateGrad");
  ASSERT_EQ(acc.size(), 1u);
  EXPECT_EQ(acc[0]->sequence_nr, -1);
}

TEST(Profiler, OpWithoutNodeHasNoSequenceNumberAndNothingIsRecordedAfterStop) {
  Tensor x = randn({3}, 0);  // requires no grad: no node
  profiler::Profile prof;
  Tensor y = tanh(x);
  prof.stop();
  Tensor z = tanh(y);
  auto tanhs = named(prof.events(), "tanh");
  ASSERT_EQ(tanhs.size(), 1u);
  EXPECT_EQ(tanhs[0]->sequence_nr, -1);
  EXPECT_FALSE(profiler::is_active());
}

TEST(Profiler, NestedOpsGiveSelfAndTotalTimes) {
  // matmul is a composite op: it calls mm inside its own scope.
  Tensor a = randn({8, 8}, 0);
  Tensor b = randn({8, 8}, 1);
  profiler::Profile prof;
  Tensor c = matmul(a, b);
  const std::vector<Event>& events = prof.events();
  auto outer = named(events, "matmul");
  auto inner = named(events, "mm");
  ASSERT_EQ(outer.size(), 1u);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0]->depth, outer[0]->depth + 1);
  EXPECT_GE(inner[0]->start_ns, outer[0]->start_ns);
  EXPECT_LE(inner[0]->end_ns, outer[0]->end_ns);
  int64_t inner_total = 0;
  for (const Event& e : events) {
    if (e.depth == outer[0]->depth + 1) inner_total += e.end_ns - e.start_ns;
  }
  for (const profiler::OpStats& s : prof.key_averages()) {
    if (s.name == "matmul") {
      EXPECT_EQ(s.calls, 1);
      EXPECT_EQ(s.total_ns, outer[0]->end_ns - outer[0]->start_ns);
      EXPECT_EQ(s.self_ns, s.total_ns - inner_total);
    }
    if (s.name == "mm") {
      EXPECT_EQ(s.self_ns, s.total_ns);  // mm calls no recorded op
    }
  }
}

TEST(Profiler, KeyAveragesCountCallsAndSortByTotal) {
  Tensor x = test_util::leaf({4}, 0);
  profiler::Profile prof;
  Tensor y = x;
  for (int i = 0; i < 5; ++i) y = tanh(y);
  sum(y).backward();
  std::vector<profiler::OpStats> stats = prof.key_averages();
  auto find = [&](const std::string& name) {
    return *std::find_if(stats.begin(), stats.end(),
                         [&](const profiler::OpStats& s) { return s.name == name; });
  };
  EXPECT_EQ(find("tanh").calls, 5);
  EXPECT_EQ(find("TanhBackward0").calls, 5);
  EXPECT_EQ(find("sum").calls, 1);
  for (size_t i = 1; i < stats.size(); ++i) EXPECT_GE(stats[i - 1].total_ns, stats[i].total_ns);

  const std::string table = prof.table();
  EXPECT_NE(table.find("Name  "), std::string::npos) << table;
  for (const char* header :
       {"Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"}) {
    EXPECT_NE(table.find(header), std::string::npos) << header << "\n" << table;
  }
  // One row per name: "tanh" then the cells, the last being the count.
  bool found = false;
  size_t start = 0;
  while (start < table.size()) {
    size_t end = table.find('\n', start);
    std::string line = table.substr(start, end - start);
    if (line.rfind("tanh ", 0) == 0) {
      found = true;
      EXPECT_EQ(line.substr(line.find_last_of(' ') + 1), "5") << line;
    }
    start = end + 1;
  }
  EXPECT_TRUE(found) << table;
  EXPECT_NE(table.find("Self CPU time total: "), std::string::npos);
  // row_limit keeps the largest totals.
  const std::string one = prof.table(1);
  EXPECT_NE(one.find("\n" + stats.front().name + " "), std::string::npos) << one;
  EXPECT_EQ(one.find("\n" + stats.back().name + " "), std::string::npos) << one;
}

TEST(Profiler, RecordsOtherThreadsOnTheirOwnThreadIds) {
  profiler::Profile prof;
  Tensor a = tanh(randn({2}, 0));
  std::thread t([] { Tensor b = tanh(randn({3}, 1)); });
  t.join();
  auto tanhs = named(prof.events(), "tanh");
  ASSERT_EQ(tanhs.size(), 2u);
  EXPECT_NE(tanhs[0]->thread, tanhs[1]->thread);
}

TEST(Profiler, OneProfileAtATime) {
  profiler::Profile prof;
  EXPECT_THROW(profiler::Profile second, std::logic_error);
  EXPECT_TRUE(profiler::is_active());
  prof.stop();
  EXPECT_FALSE(profiler::is_active());
  profiler::Profile third;  // fine after stop()
  EXPECT_TRUE(profiler::is_active());
}

TEST(Profiler, ChromeTraceHasCompleteEventsAndFlowsFromForwardToBackward) {
  Tensor w = test_util::leaf({3, 3}, 1);
  profiler::Profile prof;
  sum(mm(w, w)).backward();
  const std::string json = prof.chrome_trace_json();
  EXPECT_NE(json.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(json.find("{\"name\": \"mm\", \"cat\": \"cpu_op\", \"ph\": \"X\""), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"Input Dims\": [[3, 3], [3, 3]]"), std::string::npos) << json;
  EXPECT_NE(json.find("{\"name\": \"MmBackward0\", \"cat\": \"backward\", \"ph\": \"X\""),
            std::string::npos);
  EXPECT_NE(json.find("\"ph\": \"s\""), std::string::npos);
  EXPECT_NE(json.find("\"ph\": \"f\", \"bp\": \"e\""), std::string::npos);
  EXPECT_THROW(prof.export_chrome_trace("/nonexistent-dir/trace.json"), std::runtime_error);
}

}  // namespace
}  // namespace gradgen
