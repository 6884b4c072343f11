import ArgumentParser
import BoxControl

/// boxctl's exit codes, all of them here (its --help and man page list them). A reply from boxd
/// exits with the number v1's `exit` field gives its class; `ReplyClass` and these agree, and
/// ProtocolTests holds them together.
enum Exit: Int32 {
    case ok = 0
    /// `doctor` found a failing check.
    case checkFailed = 1
    case usage = 2
    /// Refused by the dose rules.
    case refused = 3
    /// boxd is not reachable (or too busy to answer).
    case unreachable = 4
    case logUnreadable = 5
    /// Not recorded: the box could not do it.
    case failed = 6
    /// An output file (export, report, support bundle) cannot be written.
    case outputNotWritable = 7

    init(_ reply: Reply) {
        switch reply.replyClass {
        case .ok: self = .ok
        case .usage: self = .usage
        case .refused: self = .refused
        case .busy: self = .unreachable
        case .failed: self = .failed
        }
    }
}

extension ExitCode {
    init(_ exit: Exit) { self.init(exit.rawValue) }
}
