#include "wdl/download/http_client.hpp"

#include <curl/curl.h>
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <mutex>
#include <string_view>
#include <thread>

#include "wdl/util/atomic_file.hpp"

namespace wdl::download {
namespace {

void initialize_curl_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
            throw HttpError("cannot initialize libcurl", false);
    });
}

// Failures where the same request may succeed a little later.
bool is_transient(CURLcode code) {
    switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_CONNECT:
        case CURLE_OPERATION_TIMEDOUT:
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_GOT_NOTHING:
        case CURLE_SSL_CONNECT_ERROR:
        case CURLE_HTTP2:
        case CURLE_HTTP2_STREAM:
            return true;
        default:
            return false;
    }
}

bool is_transient_status(long status) { return status == 429 || status >= 500; }

struct TransferState {
    const BodySink* sink = nullptr;
    const ProgressCallback* progress = nullptr;
    const HeadCallback* on_head = nullptr;
    std::chrono::seconds stall_timeout{};
    std::uint64_t received = 0;
    ResponseHead head;
    bool head_delivered = false;
    std::string sink_error;  // why the sink refused data (e.g. disk full)
    std::chrono::steady_clock::time_point last_data = std::chrono::steady_clock::now();
    bool stalled = false;
    CURL* curl = nullptr;

    // The head goes out once, before the first body byte (or at the end, without a body).
    void deliver_head() {
        if (head_delivered) return;
        head_delivered = true;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &head.status);
        if (on_head && *on_head) (*on_head)(head);
    }
};

std::size_t on_header_line(char* data, std::size_t size, std::size_t count, void* user) {
    auto& state = *static_cast<TransferState*>(user);
    std::string_view line(data, size * count);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    // A status line starts the head of each response, also of each redirect followed.
    if (line.starts_with("HTTP/")) {
        state.head.headers.clear();
        return size * count;
    }
    auto colon = line.find(':');
    if (colon == std::string_view::npos) return size * count;
    std::string name(line.substr(0, colon));
    for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    auto value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    state.head.headers.emplace_back(std::move(name), std::string(value));
    return size * count;
}

std::size_t on_body_data(char* data, std::size_t size, std::size_t count, void* user) {
    auto& state = *static_cast<TransferState*>(user);
    std::size_t bytes = size * count;
    try {
        state.deliver_head();
        (*state.sink)(std::string_view(data, bytes));
    } catch (const std::exception& error) {
        state.sink_error = error.what();
        return 0;  // makes libcurl abort the transfer with CURLE_WRITE_ERROR
    }
    state.received += bytes;
    state.last_data = std::chrono::steady_clock::now();
    if (state.progress && *state.progress) (*state.progress)(state.received);
    return bytes;
}

// libcurl's own low-speed limit averages over several seconds, so a server that sends a burst
// and then stalls would be noticed late; measuring the time since the last byte is exact.
int on_transfer_info(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    auto& state = *static_cast<TransferState*>(user);
    if (std::chrono::steady_clock::now() - state.last_data < state.stall_timeout) return 0;
    state.stalled = true;
    return 1;  // makes libcurl abort the transfer with CURLE_ABORTED_BY_CALLBACK
}

}  // namespace

struct HttpClient::Handle {
    CURL* curl = nullptr;
    // What the last transfer got, whether it succeeded or not.
    long status = 0;
    std::uint64_t received = 0;

    ~Handle() {
        if (curl) curl_easy_cleanup(curl);
    }

    // One request; throws HttpError (with the reason, not the URL) unless a complete response
    // arrived, which it returns whatever its status.
    ResponseHead exchange(const std::string& url, const RequestOptions& request,
                          const HttpOptions& options, const HeadCallback& on_head,
                          const BodySink& sink, const ProgressCallback& progress) {
        TransferState state;
        state.curl = curl;
        state.sink = &sink;
        state.progress = &progress;
        state.on_head = &on_head;
        state.stall_timeout = options.stall_timeout;
        status = 0;
        received = 0;
        char error_text[CURL_ERROR_SIZE] = "";
        curl_easy_reset(curl);
        curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, request.follow_redirects ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
        curl_easy_setopt(curl, CURLOPT_USERAGENT, "wdlfit");
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, long(options.connect_timeout.count()));
        curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_transfer_info);
        curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &state);
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error_text);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body_data);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
        curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header_line);
        curl_easy_setopt(curl, CURLOPT_HEADERDATA, &state);
        if (request.head_only) curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
        std::string range = fmt::format("{}-", request.range_from);
        if (request.range_from > 0) curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
        std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(nullptr, curl_slist_free_all);
        for (const auto& header : request.headers) {
            auto* extended = curl_slist_append(headers.get(), header.c_str());
            if (!extended) throw HttpError("cannot build the request's headers", false);
            headers.release();
            headers.reset(extended);
        }
        if (headers) curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());

        CURLcode code = curl_easy_perform(curl);
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        received = state.received;
        if (state.stalled)
            throw HttpError(fmt::format("no data for {} s", options.stall_timeout.count()), true);
        if (code != CURLE_OK) {
            std::string reason = !state.sink_error.empty() ? state.sink_error
                                 : error_text[0]           ? error_text
                                                           : curl_easy_strerror(code);
            throw HttpError(reason, is_transient(code));
        }
        state.deliver_head();
        return state.head;
    }

    // One request; throws HttpError unless the server answered 2xx with a complete body.
    void perform(const std::string& url, const RequestOptions& request, const HttpOptions& options,
                 const BodySink& sink, const ProgressCallback& progress, ResponseHead* head_out) {
        auto head = exchange(url, request, options, {}, sink, progress);
        if (head_out) *head_out = head;
        if (head.status < 200 || head.status >= 300)
            throw HttpError(fmt::format("HTTP status {}", head.status),
                            is_transient_status(head.status), requested_wait(head));
    }
};

HttpClient::HttpClient(HttpOptions options)
    : options_(options), handle_(std::make_unique<Handle>()) {
    initialize_curl_once();
    handle_->curl = curl_easy_init();
    if (!handle_->curl) throw HttpError("cannot create a libcurl handle", false);
}

HttpClient::~HttpClient() = default;

void HttpClient::pause_before_request() {
    auto now = std::chrono::steady_clock::now();
    auto earliest = last_request_start_ + options_.pause_between_requests;
    if (last_request_start_.time_since_epoch().count() != 0 && now < earliest)
        std::this_thread::sleep_for(earliest - now);
    last_request_start_ = std::chrono::steady_clock::now();
}

std::chrono::milliseconds HttpClient::retry_delay(int retry, const HttpError& error) const {
    if (auto asked = error.requested_wait())
        return std::min<std::chrono::milliseconds>(*asked, options_.max_requested_wait);
    auto delay = options_.first_retry_delay;
    for (int i = 1; i < retry && delay < options_.max_retry_delay; ++i)
        delay = std::min(delay * 2, options_.max_retry_delay);
    return delay;
}

template <typename Attempt>
auto HttpClient::with_retries(const std::string& url, Attempt attempt) -> decltype(attempt()) {
    for (int attempt_number = 1;; ++attempt_number) {
        pause_before_request();
        AttemptReport report;
        report.url = url;
        report.attempt = attempt_number;
        try {
            auto result = attempt();
            report.status = handle_->status;
            report.bytes = handle_->received;
            if (observer_) observer_(report);
            return result;
        } catch (const HttpError& error) {
            bool retry = error.transient() && attempt_number <= options_.max_retries;
            auto delay = retry_delay(attempt_number, error);
            report.status = handle_->status;
            report.bytes = handle_->received;
            report.failure = error.what();
            if (retry) report.retry_in = delay;
            if (observer_) observer_(report);
            if (!error.transient())
                throw HttpError(fmt::format("{}: {}", url, error.what()), false);
            if (!retry)
                throw HttpError(fmt::format("{}: {} (gave up after {} attempts)", url, error.what(),
                                            attempt_number),
                                true);
            std::this_thread::sleep_for(delay);
        }
    }
}

std::string HttpClient::get(const std::string& url, const RequestOptions& request,
                            ResponseHead* head) {
    return with_retries(url, [&] {
        std::string body;
        BodySink append = [&](std::string_view bytes) { body.append(bytes); };
        handle_->perform(url, request, options_, append, {}, head);
        return body;
    });
}

ResponseHead HttpClient::send(const std::string& url, const RequestOptions& request,
                              const HeadCallback& on_head, const BodySink& body,
                              const ProgressCallback& progress) {
    pause_before_request();
    AttemptReport report;
    report.url = url;
    try {
        auto head = handle_->exchange(url, request, options_, on_head, body, progress);
        report.status = head.status;
        report.bytes = handle_->received;
        if (head.status >= 400) report.failure = fmt::format("HTTP status {}", head.status);
        if (observer_) observer_(report);
        return head;
    } catch (const HttpError& error) {
        report.status = handle_->status;
        report.bytes = handle_->received;
        report.failure = error.what();
        if (observer_) observer_(report);
        throw HttpError(fmt::format("{}: {}", url, error.what()), error.transient());
    }
}

std::uint64_t HttpClient::get_to_file(const std::string& url, const std::filesystem::path& target,
                                      const ProgressCallback& progress, const BodyCheck& check) {
    return with_retries(url, [&] {
        // A fresh temporary file per attempt: a failed attempt's partial body is discarded
        // when `file` goes out of scope uncommitted.
        util::AtomicFile file(target);
        std::uint64_t written = 0;
        BodySink write = [&](std::string_view bytes) {
            file.write(bytes);
            written += bytes.size();
        };
        handle_->perform(url, {}, options_, write, progress, nullptr);
        if (check) {
            if (std::fflush(file.stream()) != 0)
                throw Error("cannot write " + file.written_path().string());
            if (auto defect = check(file.written_path())) throw HttpError(*defect, true);
        }
        file.commit();
        return written;
    });
}

}  // namespace wdl::download
