#include "local_http_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <stdexcept>

namespace wdl::testing {
namespace {

Request parse_request_line(const std::string& head) {
    // "GET /api/finished_runs?page=1&ltc_only=1 HTTP/1.1"
    auto first_space = head.find(' ');
    auto second_space = head.find(' ', first_space + 1);
    auto target = head.substr(first_space + 1, second_space - first_space - 1);
    Request request;
    request.method = head.substr(0, first_space);
    request.target = target;
    auto question = target.find('?');
    request.path = target.substr(0, question);
    if (question == std::string::npos) return request;
    auto query = target.substr(question + 1);
    std::size_t start = 0;
    while (start <= query.size()) {
        auto end = query.find('&', start);
        if (end == std::string::npos) end = query.size();
        auto pair = query.substr(start, end - start);
        auto equals = pair.find('=');
        if (!pair.empty())
            request.parameters[pair.substr(0, equals)] =
                equals == std::string::npos ? "" : pair.substr(equals + 1);
        start = end + 1;
    }
    return request;
}

bool send_all(int connection, const char* data, std::size_t size) {
    while (size > 0) {
        auto sent = ::send(connection, data, size, MSG_NOSIGNAL);
        if (sent <= 0) return false;
        data += sent;
        size -= std::size_t(sent);
    }
    return true;
}

const char* reason_phrase(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 206:
            return "Partial Content";
        case 302:
            return "Found";
        case 403:
            return "Forbidden";
        case 410:
            return "Gone";
        case 416:
            return "Range Not Satisfiable";
        case 404:
            return "Not Found";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        default:
            return "Status";
    }
}

// "Name: value" lines after the request line, names in lower case.
std::map<std::string, std::string> parse_headers(const std::string& head) {
    std::map<std::string, std::string> headers;
    auto start = head.find("\r\n");
    while (start != std::string::npos) {
        start += 2;
        auto end = head.find("\r\n", start);
        auto line = head.substr(start, end - start);
        auto colon = line.find(':');
        if (colon != std::string::npos) {
            auto name = line.substr(0, colon);
            for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
            auto value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            headers[name] = value;
        }
        start = end;
    }
    return headers;
}

}  // namespace

LocalHttpServer::LocalHttpServer(Handler handler) : handler_(std::move(handler)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (listener_ < 0) throw std::runtime_error("socket() failed");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 64) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        ::close(listener_);
        throw std::runtime_error("cannot listen on 127.0.0.1");
    }
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_connections(); });
}

LocalHttpServer::~LocalHttpServer() {
    stopping_ = true;
    acceptor_.join();
    for (auto& connection : connections_) connection.join();
    ::close(listener_);
}

std::string LocalHttpServer::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

std::vector<Request> LocalHttpServer::requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
}

void LocalHttpServer::clear_requests() {
    std::lock_guard lock(mutex_);
    requests_.clear();
}

bool LocalHttpServer::wait_for_stall(std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return stalled_.wait_for(lock, limit, [this] { return stalled_count_ > 0; });
}

void LocalHttpServer::accept_connections() {
    while (!stopping_) {
        pollfd waiting{listener_, POLLIN, 0};
        if (::poll(&waiting, 1, 20) <= 0) continue;
        int connection = ::accept(listener_, nullptr, nullptr);
        if (connection < 0) continue;
        std::lock_guard lock(mutex_);
        connections_.emplace_back([this, connection] {
            serve(connection);
            ::close(connection);
        });
    }
}

void LocalHttpServer::serve(int connection) {
    std::string head;
    char buffer[4096];
    while (head.find("\r\n\r\n") == std::string::npos && !stopping_) {
        pollfd waiting{connection, POLLIN, 0};
        if (::poll(&waiting, 1, 20) <= 0) continue;
        auto received = ::recv(connection, buffer, sizeof buffer, 0);
        if (received <= 0) return;
        head.append(buffer, std::size_t(received));
    }
    if (stopping_) return;
    auto request = parse_request_line(head.substr(0, head.find("\r\n")));
    request.headers = parse_headers(head.substr(0, head.find("\r\n\r\n")));
    Response response;
    {
        std::lock_guard lock(mutex_);
        requests_.push_back(request);
        response = handler_(request);
    }
    if (request.method == "HEAD") {
        response.close_after_bytes = 0;
        response.stall_after_bytes.reset();
    }
    send_response(connection, response);
}

void LocalHttpServer::send_response(int connection, const Response& response) {
    std::string head =
        "HTTP/1.1 " + std::to_string(response.status) + " " + reason_phrase(response.status);
    if (!response.close_delimited)
        head += "\r\nContent-Length: " + std::to_string(response.body.size());
    for (const auto& [name, value] : response.headers) head += "\r\n" + name + ": " + value;
    head += "\r\nConnection: close\r\n\r\n";
    if (!send_all(connection, head.data(), head.size())) return;
    std::size_t body_bytes = response.body.size();
    if (response.close_after_bytes) body_bytes = std::min(body_bytes, *response.close_after_bytes);
    if (response.stall_after_bytes) body_bytes = std::min(body_bytes, *response.stall_after_bytes);
    if (!send_all(connection, response.body.data(), body_bytes)) return;
    if (!response.stall_after_bytes) return;
    {
        std::lock_guard lock(mutex_);
        ++stalled_count_;
    }
    stalled_.notify_all();
    while (!stopping_) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

}  // namespace wdl::testing
