// What a view is given, in one value: the request and its target as routed. The chain
// (RequestChain.swift) makes one per request.

/// One request as the views see it.
struct RequestContext {
  let request: HTTPRequest
  /// The target without the token's segments (AccessControl.capability).
  let target: RequestTarget
  /// Whether the answer is JSON: the path is under `/api/`.
  let json: Bool
  /// What the links of the answer start with: the token's segments when the request carried
  /// them, else nothing (Links.prefix).
  let linkPrefix: String
}
