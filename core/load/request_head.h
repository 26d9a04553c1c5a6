#pragma once

// The HTTP/1.1 request the load client writes: its target from the endpoint URL, the head every
// request shares, and each request whole.

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ayar {

// Where requests go: the Host header and request target of the endpoint URL, and whether TLS is used.
struct HttpTarget {
  std::string host;
  std::string path;
  bool tls = false;
};

// Throws ayar::Error (MessageText::LoadEndpointInvalid) for a URL libcurl cannot parse.
HttpTarget parseHttpTarget(const std::string& url);

// The head of every POST up to its own lines: the request line, Host, and the header lines as vLLM's
// client sets them (its own, Authorization with a key, then the user's `headers`, each replacing one
// of the same name). Throws ayar::Error (MessageText::LoadHeaderInvalid) for a header that would
// break the head.
std::string requestHeadPrefix(const HttpTarget& target, const std::string& apiKey,
                              const std::vector<std::pair<std::string, std::string>>& headers);

// One request into `out`: the shared head, x-request-id when `requestIdPrefix` is set (the prefix and
// the request's index), Content-Length, and the body.
void writeRequest(std::string& out, const std::string& headPrefix, const std::string& requestIdPrefix,
                  std::int64_t index, std::string_view body);

}  // namespace ayar
