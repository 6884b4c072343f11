/// Which feed entries the broker has, for the cursor the bridge keeps: entries are published
/// in id order, each under libmosquitto's message id (mid); PUBACKs may name them in any
/// order, and the cursor moves only over a run with no gap, so after a restart every entry
/// the broker might not have is sent again (at least once; a consumer drops an id it has).
public struct AckCursor: Sendable, Hashable {
    /// One entry handed to the broker, not yet acknowledged.
    public struct Sent: Sendable, Hashable {
        public var id: Int64
        public var mid: Int32
        public init(id: Int64, mid: Int32) {
            self.id = id
            self.mid = mid
        }
    }

    /// Every entry up to this id is acknowledged.
    public private(set) var acked: Int64
    /// Published, not yet acknowledged, in feed order.
    public private(set) var inFlight: [Sent] = []
    private var ackedMids: Set<Int32> = []

    public init(acked: Int64) { self.acked = acked }

    /// The newest id handed to the broker (what `watch` should continue after within this
    /// process: libmosquitto keeps what is in flight across a reconnect).
    public var published: Int64 { inFlight.last?.id ?? acked }

    /// Records an entry handed to the broker. An id at or below `published` was handed over
    /// already (a replay overlapping what is in flight): nothing changes and false says so.
    @discardableResult
    public mutating func published(id: Int64, mid: Int32) -> Bool {
        guard id > published else { return false }
        inFlight.append(Sent(id: id, mid: mid))
        return true
    }

    /// An entry in flight was handed to the broker again under a new mid (the broker refused it
    /// the first time, and libmosquitto dropped it). False if `id` is not in flight.
    @discardableResult
    public mutating func republished(id: Int64, mid: Int32) -> Bool {
        guard let i = inFlight.firstIndex(where: { $0.id == id }) else { return false }
        ackedMids.remove(inFlight[i].mid)
        inFlight[i].mid = mid
        return true
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
}
