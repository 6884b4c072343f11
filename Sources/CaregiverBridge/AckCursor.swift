/// Which feed entries the broker has, for the cursor the bridge keeps: entries are published
/// in id order, each under libmosquitto's message id (mid); PUBACKs may name them in any
/// order, and the cursor moves only over a run with no gap, so after a restart every entry
/// the broker might not have is sent again (at least once; a consumer drops an id it has).
public struct AckCursor: Sendable, Hashable {
    /// Every entry up to this id is acknowledged.
    public private(set) var acked: Int64
    /// Published, not yet acknowledged: (feed id, mid), in feed order.
    public private(set) var inFlight: [(id: Int64, mid: Int32)] = []
    private var ackedMids: Set<Int32> = []

    public init(acked: Int64) { self.acked = acked }

    /// The newest id handed to the broker (what `watch` should continue after within this
    /// process: libmosquitto keeps what is in flight across a reconnect).
    public var published: Int64 { inFlight.last?.id ?? acked }

    public mutating func published(id: Int64, mid: Int32) {
        precondition(id > published, "feed ids are published in order")
        inFlight.append((id, mid))
    }

    /// The broker acknowledged `mid`. Returns the new cursor when it moved.
    public mutating func acknowledged(mid: Int32) -> Int64? {
        guard inFlight.contains(where: { $0.mid == mid }) else { return nil } // not ours, or already counted
        ackedMids.insert(mid)
        let before = acked
        while let first = inFlight.first, ackedMids.remove(first.mid) != nil {
            acked = first.id
            inFlight.removeFirst()
        }
        return acked == before ? nil : acked
    }

    public static func == (a: AckCursor, b: AckCursor) -> Bool {
        a.acked == b.acked && a.inFlight.map(\.id) == b.inFlight.map(\.id) && a.inFlight.map(\.mid) == b.inFlight.map(\.mid)
    }

    public func hash(into h: inout Hasher) {
        h.combine(acked)
        for f in inFlight {
            h.combine(f.id)
            h.combine(f.mid)
        }
    }
}
