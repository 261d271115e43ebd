import FanoutServe
import FanoutSite
import FanoutTemplates
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Answers every request `serve` gets (docs/serve.md): the site's pages, rendered on request with
/// the site's current state, the lookups `/u/<uid>` and `/p/<post key>`, the search endpoint and the reload
/// event stream. One responder rather than a router, so that every request passes the same checks first: a
/// router answers a method it has no route for with 404 itself, without running any middleware.
struct SiteResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let store: SiteStore
    let broadcaster: Broadcaster
    let cache: PageCache
    /// The most users one search answers with.
    static let searchLimit = 20
    /// Request headers beyond this many bytes in all get 431 (the HTTP decoder closes the connection on yet more).
    static let maxHeaderBytes = 16 * 1024

    func respond(to request: Request, context: Context) async throws -> Response {
        let isHead = request.method == .head
        guard request.method == .get || isHead else {
            return Self.text(
                .methodNotAllowed, "Only GET and HEAD are answered.\n", isHead: false, extra: [.allow: "GET, HEAD"])
        }
        guard request.uri.string.utf8.count <= ServePath.maxTargetBytes else {
            return Self.text(
                .uriTooLong, "The request's URL is longer than \(ServePath.maxTargetBytes) bytes.\n", isHead: isHead)
        }
        let headerBytes = request.headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
        guard headerBytes <= Self.maxHeaderBytes else {
            return Self.text(
                .requestHeaderFieldsTooLarge, "The request's headers are larger than \(Self.maxHeaderBytes) bytes.\n",
                isHead: isHead)
        }
        guard let path = ServePath.decode(request.uri.path) else {
            return Self.text(.badRequest, "The request's path is not one a page can have.\n", isHead: isHead)
        }
        let state = store.current  // this request keeps this state, whatever a reload swaps in meanwhile
        switch path {
        case LiveReload.eventsPath:
            return isHead
                ? Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"])
                : events()
        case LiveReload.searchPath:
            return search(request.uri.queryParameters["q"].map(String.init) ?? "", state.pages, isHead: isHead)
        default: break
        }
        if let uid = Self.lookup(path, prefix: "/u/") {
            return redirect(state.pages.timelinePath(uid: uid), what: "user", isHead: isHead, state: state)
        }
        if let key = Self.lookup(path, prefix: "/p/") {
            return redirect(state.pages.postPath(key: key), what: "post", isHead: isHead, state: state)
        }
        let sitePath = ServePath.sitePath(path)
        let pages = state.pages, reloadError = state.error
        guard let page = pages.requestedPage(at: sitePath) else {
            // A folder's path without its slash (`/users/<folder>`): to the folder, as static servers answer.
            if !sitePath.isEmpty, !path.hasSuffix("/"), pages.hasPage(at: sitePath + "/index.html") {
                return Response(
                    status: .movedPermanently, headers: [.location: request.uri.path + "/", .contentLength: "0"])
            }
            return notFound(path, state: state, isHead: isHead)
        }
        let type = Self.contentType(sitePath), isHTML = type.hasPrefix("text/html")
        // A page keyed by its data is looked up here, in the request's task: a hit is answered without leaving it.
        if let dataKey = page.dataKey {
            let key = PageCache.key(dataKey, reloadError: reloadError)
            if Self.matches(request, key) { return Self.notModified(key) }
            if let body = cache.body(key, path: sitePath) {
                return Self.pageResponse(body, key: key, hit: true, type: type, isHead: isHead)
            }
        }
        let answer: (body: ByteBuffer, key: UInt64, hit: Bool)
        do {
            // Rendering is CPU work: on NIO's thread pool, so that it neither blocks an event loop nor queues behind
            // other renders on the cooperative pool, whose latency was 10 times worse (docs/serve.md). The page's
            // bytes go into the response's buffer there, the script with them, in one copy.
            answer = try await NIOThreadPool.singleton.runIfActive { () throws -> (ByteBuffer, UInt64, Bool) in
                let prepared = try page.prepare()
                let key = PageCache.key(prepared.inputKey, reloadError: reloadError)
                if page.dataKey == nil, let body = cache.body(key, path: sitePath) { return (body, key, true) }
                let bytes = try prepared.renderBytes()
                let body = isHTML ? LiveReload.inject(into: bytes, error: reloadError) : ByteBuffer(bytes: bytes)
                cache.insert(key, path: sitePath, body: body)
                return (body, key, false)
            }
        } catch let error as RenderError {
            return html(
                .internalServerError, Self.message("This page could not be rendered", String(describing: error)),
                state: state, isHead: isHead)
        }
        if Self.matches(request, answer.key) { return Self.notModified(answer.key) }
        return Self.pageResponse(answer.body, key: answer.key, hit: answer.hit, type: type, isHead: isHead)
    }

    /// A page's ETag: its cache key, which changes whenever anything the page shows does.
    private static func etag(_ key: UInt64) -> String {
        let hex = String(key, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether the request's `If-None-Match` names the page's ETag (or `*`): the client has these bytes already.
    private static func matches(_ request: Request, _ key: UInt64) -> Bool {
        guard let tags = request.headers[.ifNoneMatch] else { return false }
        let etag = etag(key)
        return tags.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    private static func notModified(_ key: UInt64) -> Response {
        Response(status: .notModified, headers: [.eTag: etag(key), .cacheControl: "no-cache"])
    }

    /// A page of the site: its body, its ETag, and whether it came from the page cache (`X-Fanout-Page-Cache`).
    private static func pageResponse(_ body: ByteBuffer, key: UInt64, hit: Bool, type: String, isHead: Bool) -> Response
    {
        var response = response(.ok, body, type: type, isHead: isHead)
        response.headers[.eTag] = etag(key)
        // Says whether a page came from the page cache (docs/serve.md "The page cache").
        response.headers[.init("X-Fanout-Page-Cache")!] = hit ? "hit" : "miss"
        return response
    }

    /// The key after `prefix` in a lookup path (`/u/<uid>`, `/p/<key>`); nil for other paths.
    private static func lookup(_ path: String, prefix: String) -> String? {
        guard path.hasPrefix(prefix) else { return nil }
        let key = String(path.dropFirst(prefix.count))
        return key.isEmpty || key.contains("/") ? nil : key
    }

    /// 302 to the page's absolute path: a lookup answers with whatever the site holds now, so it is not permanent.
    private func redirect(_ target: String?, what: String, isHead: Bool, state: SiteStore.State) -> Response {
        guard let target else {
            return html(
                .notFound, Self.message("No such \(what)", "The site has no page for this \(what)."), state: state,
                isHead: isHead)
        }
        return Response(status: .found, headers: [.location: "/" + target, .contentLength: "0"])
    }

    private func search(_ query: String, _ pages: SitePages, isHead: Bool) -> Response {
        struct Hit: Encodable {
            let username: String
            let uid: String
            let url: String
        }
        let (found, total) = pages.users(matching: query, limit: Self.searchLimit)
        let hits = found.map { Hit(username: $0.username, uid: $0.uid, url: "/" + $0.path) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(hits)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        var response = Self.response(
            .ok, json, type: "application/json; charset=utf-8", isHead: isHead, cache: "no-store")
        // How many match in all, beyond the first 20 listed: the search box's status line counts them.
        response.headers[.init("X-Total-Count")!] = "\(total)"
        return response
    }

    /// The reload event stream: `reload` when the site changed (or failed to), a comment every 15 s to keep the
    /// connection open and notice a client that left (a write to it fails).
    private func events() -> Response {
        let events = broadcaster.subscribe()
        return Response(
            status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
                // Ends on graceful shutdown, which otherwise waits for this response to finish.
                for await event in events.cancelOnGracefulShutdown() {
                    switch event {
                    case .reload: try await writer.write(ByteBuffer(string: "event: reload\ndata: reload\n\n"))
                    case .ping: try await writer.write(ByteBuffer(string: ": ping\n\n"))
                    }
                }
                try await writer.finish(nil)
            })
    }

    private func notFound(_ path: String, state: SiteStore.State, isHead: Bool) -> Response {
        html(.notFound, Self.message("Not found", "The site has no page at \(path)."), state: state, isHead: isHead)
    }

    private func html(_ status: HTTPResponse.Status, _ page: String, state: SiteStore.State, isHead: Bool) -> Response {
        Self.response(
            status, LiveReload.inject(into: page, error: state.error), type: "text/html; charset=utf-8", isHead: isHead)
    }

    /// A small page of the server's own (not one of the site's).
    private static func message(_ title: String, _ text: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTMLText.escape(title))</title></head>"
            + "<body><h1>\(HTMLText.escape(title))</h1><pre>\(HTMLText.escape(text))</pre>"
            + "<p><a href=\"/\">All users</a></p></body></html>\n"
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String, isHead: Bool, extra: HTTPFields = [:])
        -> Response
    {
        var response = response(status, text, type: "text/plain; charset=utf-8", isHead: isHead)
        response.headers.append(contentsOf: extra)
        return response
    }

    /// `text` as the body, or for HEAD only its length.
    private static func response(
        _ status: HTTPResponse.Status, _ text: String, type: String, isHead: Bool, cache: String = "no-cache"
    ) -> Response {
        response(status, ByteBuffer(string: text), type: type, isHead: isHead, cache: cache)
    }

    /// `buffer` as the body, or for HEAD only its length.
    private static func response(
        _ status: HTTPResponse.Status, _ buffer: ByteBuffer, type: String, isHead: Bool, cache: String = "no-cache"
    ) -> Response {
        Response(
            status: status,
            headers: [.contentType: type, .cacheControl: cache, .contentLength: String(buffer.readableBytes)],
            body: isHead ? ResponseBody() : ResponseBody(byteBuffer: buffer))
    }

    /// The media type of a site file, by its extension.
    static func contentType(_ path: String) -> String {
        switch path.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "md": "text/markdown; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "json":
            path.hasSuffix("feed.json") ? "application/feed+json; charset=utf-8" : "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "xml":
            path.hasSuffix("feed.xml") ? "application/atom+xml; charset=utf-8" : "application/xml; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
