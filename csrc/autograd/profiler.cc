#include "csrc/autograd/profiler.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "csrc/util/json.h"

namespace gradgen {
namespace autograd {
namespace profiler {

namespace {

// One thread's events of the current profile. Its mutex is uncontended except while stop()
// collects; it is taken only while a profile records.
struct ThreadBuffer {
  std::mutex mutex;
  uint32_t thread = 0;
  uint64_t session = 0;  // the profile the events belong to
  uint32_t depth = 0;    // scopes open on the thread
  std::vector<Event> events;
};

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  uint32_t threads = 0;
};

// When the current profile began (steady_clock ns); atomic, as every recording thread reads it.
std::atomic<int64_t> origin_ns{0};

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: threads may outlive statics
  return *r;
}

// The profile recording now (0: none). Sessions number from 1.
std::atomic<uint64_t> current_session{0};
std::atomic<uint64_t> last_session{0};

thread_local std::shared_ptr<ThreadBuffer> tls_buffer;

void update_active() {
  const bool on = internal::callback != nullptr || current_session.load() != 0;
  internal::active.store(on, std::memory_order_relaxed);
}

int64_t now_ns() { return steady_ns() - origin_ns.load(std::memory_order_relaxed); }

// The calling thread's buffer for the current profile (cleared when a new one began), or null.
ThreadBuffer* buffer_for(uint64_t session) {
  if (session == 0) return nullptr;
  if (!tls_buffer) {
    auto b = std::make_shared<ThreadBuffer>();
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    b->thread = ++r.threads;
    r.buffers.push_back(b);
    tls_buffer = std::move(b);
  }
  return tls_buffer.get();
}

// An event handle: the session in the high 32 bits, the index in the thread's buffer below.
int64_t begin_event(Event&& e) {
  const uint64_t session = current_session.load(std::memory_order_acquire);
  ThreadBuffer* b = buffer_for(session);
  if (!b) return -1;
  std::lock_guard<std::mutex> lock(b->mutex);
  if (b->session != session) {
    b->session = session;
    b->events.clear();
    b->depth = 0;
  }
  e.thread = b->thread;
  e.depth = b->depth++;
  e.end_ns = -1;  // open
  e.start_ns = now_ns();
  b->events.push_back(std::move(e));
  return static_cast<int64_t>((session << 32) | (b->events.size() - 1));
}

// Closes the event; returns it (null when the profile it belonged to is over).
Event* end_event(int64_t handle) {
  if (handle < 0 || !tls_buffer) return nullptr;
  const int64_t end = now_ns();
  ThreadBuffer* b = tls_buffer.get();
  const uint64_t session = static_cast<uint64_t>(handle) >> 32;
  const size_t index = static_cast<size_t>(handle & 0xffffffff);
  std::lock_guard<std::mutex> lock(b->mutex);
  if (b->session != session || index >= b->events.size()) return nullptr;
  if (b->depth > 0) --b->depth;
  Event& e = b->events[index];
  e.end_ns = end;
  return &e;
}

using util::json_string;

// Microseconds with three decimals (ns precision), as the trace format's "ts" and "dur".
std::string micros(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  return buf;
}

std::string shapes_json(const std::vector<std::vector<int64_t>>& shapes) {
  std::string out = "[";
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i) out += ", ";
    out += "[";
    for (size_t j = 0; j < shapes[i].size(); ++j) {
      if (j) out += ", ";
      out += std::to_string(shapes[i][j]);
    }
    out += "]";
  }
  return out + "]";
}

// torch.autograd.profiler_util._format_time: 12.345us, 1.234ms, 1.234s.
std::string format_time(int64_t ns) {
  char buf[32];
  const double us = static_cast<double>(ns) / 1000.0;
  if (us >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.3fs", us / 1e6);
  } else if (us >= 1e3) {
    std::snprintf(buf, sizeof buf, "%.3fms", us / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.3fus", us);
  }
  return buf;
}

std::string format_percent(int64_t part, int64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

}  // namespace

void set_callback(Callback callback) {
  internal::callback = callback;
  update_active();
}

namespace internal {

int64_t enter_op(const char* op, ShapeList&& shapes) {
  if (Callback cb = callback) cb(op, true);
  Event e;
  e.name = op;
  e.kind = Event::Kind::kOp;
  e.sequence_nr = static_cast<int64_t>(Node::peek_sequence_nr());
  e.input_shapes = std::move(shapes.shapes);
  return begin_event(std::move(e));
}

void exit_op(const char* op, int64_t event) {
  if (Event* e = end_event(event)) {
    // No node created while the op ran: it links to no Backward node.
    if (static_cast<int64_t>(Node::peek_sequence_nr()) == e->sequence_nr) e->sequence_nr = -1;
  }
  if (Callback cb = callback) cb(op, false);
}

int64_t enter_node(const Node& node, const variable_list& grads) {
  Event e;
  e.name = node.name();
  e.kind = Event::Kind::kBackward;
  const uint64_t seq = node.sequence_nr();
  e.sequence_nr = seq == std::numeric_limits<uint64_t>::max() ? -1 : static_cast<int64_t>(seq);
  for (const Tensor& g : grads) {
    e.input_shapes.push_back(g.defined() ? g.sizes().vec() : std::vector<int64_t>{});
  }
  return begin_event(std::move(e));
}

void exit_node(int64_t event) { end_event(event); }

}  // namespace internal

Profile::Profile() {
  if (current_session.load() != 0) {
    throw std::logic_error("profiler::Profile: another Profile is already recording");
  }
  origin_ns.store(steady_ns(), std::memory_order_relaxed);
  uint64_t expected = 0;
  const uint64_t session = last_session.fetch_add(1) + 1;
  if (!current_session.compare_exchange_strong(expected, session)) {
    throw std::logic_error("profiler::Profile: another Profile is already recording");
  }
  update_active();
}

Profile::~Profile() { stop(); }

void Profile::stop() {
  if (stopped_) return;
  stopped_ = true;
  const uint64_t session = current_session.exchange(0);
  update_active();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto& b : r.buffers) {
    std::lock_guard<std::mutex> buffer_lock(b->mutex);
    if (b->session != session) continue;
    for (Event& e : b->events) {
      if (e.end_ns >= 0) events_.push_back(std::move(e));
    }
    b->events.clear();
    b->session = 0;
    b->depth = 0;
  }
  std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.depth < b.depth;
  });
}

const std::vector<Event>& Profile::events() {
  stop();
  return events_;
}

std::vector<OpStats> Profile::key_averages() {
  stop();
  // Self time: an event's total minus that of the events directly inside it, which are the
  // events one level deeper that start after it on the same thread (events_ is in start order).
  std::vector<int64_t> self(events_.size());
  std::map<uint32_t, std::vector<size_t>> open_at_depth;  // thread -> depth -> last event
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    self[i] = e.end_ns - e.start_ns;
    std::vector<size_t>& open = open_at_depth[e.thread];
    if (open.size() <= e.depth) open.resize(e.depth + 1, SIZE_MAX);
    open[e.depth] = i;
    if (e.depth > 0 && open[e.depth - 1] != SIZE_MAX) {
      self[open[e.depth - 1]] -= e.end_ns - e.start_ns;
    }
  }
  std::map<std::string, OpStats> by_name;
  for (size_t i = 0; i < events_.size(); ++i) {
    OpStats& s = by_name[events_[i].name];
    s.name = events_[i].name;
    s.calls += 1;
    s.total_ns += events_[i].end_ns - events_[i].start_ns;
    s.self_ns += self[i];
  }
  std::vector<OpStats> out;
  for (auto& [name, s] : by_name) out.push_back(s);
  std::stable_sort(out.begin(), out.end(),
                   [](const OpStats& a, const OpStats& b) { return a.total_ns > b.total_ns; });
  return out;
}

std::string Profile::table(int row_limit) {
  const std::vector<OpStats> stats = key_averages();
  int64_t self_total = 0;
  size_t name_width = 4;
  for (const OpStats& s : stats) {
    self_total += s.self_ns;
    name_width = std::max(name_width, s.name.size());
  }
  const char* headers[] = {"Self CPU %", "Self CPU",     "CPU total %",
                           "CPU total",  "CPU time avg", "# of Calls"};
  const size_t col = 12;
  std::string rule = std::string(name_width, '-');
  for (size_t i = 0; i < 6; ++i) rule += "  " + std::string(col, '-');
  rule += "\n";
  auto pad_left = [](const std::string& s, size_t w) {
    return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
  };
  auto pad_right = [](const std::string& s, size_t w) {
    return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
  };
  std::string out = rule + pad_right("Name", name_width);
  for (const char* h : headers) out += "  " + pad_left(h, col);
  out += "\n" + rule;
  int rows = 0;
  for (const OpStats& s : stats) {
    if (row_limit >= 0 && rows++ >= row_limit) break;
    out += pad_right(s.name, name_width);
    const std::string cells[] = {format_percent(s.self_ns, self_total),
                                 format_time(s.self_ns),
                                 format_percent(s.total_ns, self_total),
                                 format_time(s.total_ns),
                                 format_time(s.calls ? s.total_ns / s.calls : 0),
                                 std::to_string(s.calls)};
    for (const std::string& c : cells) out += "  " + pad_left(c, col);
    out += "\n";
  }
  out += rule;
  out += "Self CPU time total: " + format_time(self_total) + "\n";
  return out;
}

std::string Profile::chrome_trace_json() {
  stop();
  const std::string pid = std::to_string(static_cast<long long>(getpid()));
  std::string out = "{\n  \"displayTimeUnit\": \"ns\",\n  \"traceEvents\": [";
  bool first = true;
  auto emit = [&](const std::string& event) {
    out += first ? "\n    " : ",\n    ";
    first = false;
    out += event;
  };
  // The forward op each sequence number links to: the innermost op that created the node.
  std::map<int64_t, size_t> forward_of;
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (e.kind != Event::Kind::kOp || e.sequence_nr < 0) continue;
    auto it = forward_of.find(e.sequence_nr);
    if (it == forward_of.end() || events_[it->second].depth < e.depth) {
      forward_of[e.sequence_nr] = i;
    }
  }
  for (const Event& e : events_) {
    const bool op = e.kind == Event::Kind::kOp;
    std::string ev = "{\"name\": " + json_string(e.name) + ", \"cat\": \"" +
                     (op ? "cpu_op" : "backward") +
                     "\", \"ph\": \"X\", \"ts\": " + micros(e.start_ns) +
                     ", \"dur\": " + micros(e.end_ns - e.start_ns) + ", \"pid\": " + pid +
                     ", \"tid\": " + std::to_string(e.thread) +
                     ", \"args\": {\"Input Dims\": " + shapes_json(e.input_shapes) +
                     ", \"Sequence number\": " + std::to_string(e.sequence_nr) + "}}";
    emit(ev);
  }
  // Flow arrows: forward op -> the Backward node it created.
  for (const Event& e : events_) {
    if (e.kind != Event::Kind::kBackward || e.sequence_nr < 0) continue;
    auto it = forward_of.find(e.sequence_nr);
    if (it == forward_of.end()) continue;
    const Event& f = events_[it->second];
    const std::string id = std::to_string(e.sequence_nr);
    emit("{\"name\": \"fwdbwd\", \"cat\": \"fwdbwd\", \"ph\": \"s\", \"id\": " + id + ", \"ts\": " +
         micros(f.start_ns) + ", \"pid\": " + pid + ", \"tid\": " + std::to_string(f.thread) + "}");
    emit("{\"name\": \"fwdbwd\", \"cat\": \"fwdbwd\", \"ph\": \"f\", \"bp\": \"e\", \"id\": " + id +
         ", \"ts\": " + micros(e.start_ns) + ", \"pid\": " + pid +
         ", \"tid\": " + std::to_string(e.thread) + "}");
  }
  out += "\n  ]\n}\n";
  return out;
}

void Profile::export_chrome_trace(const std::string& path) {
  const std::string json = chrome_trace_json();
  std::ofstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("export_chrome_trace: cannot open '" + path + "' for writing");
  f << json;
  if (!f.flush()) throw std::runtime_error("export_chrome_trace: cannot write '" + path + "'");
}

}  // namespace profiler
}  // namespace autograd
}  // namespace gradgen
