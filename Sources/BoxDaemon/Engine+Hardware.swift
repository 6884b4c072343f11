import BoxHardware
import Foundation

extension Engine {
    /// What the engine is given of the box: LED, sound, the buttons' edges and their health,
    /// the voice; real or simulated alike.
    public struct Hardware: Sendable {
        public var led: LEDPlayer
        public var audio: any TonePlayer
        /// The buttons: GPIO, or simulated buttons fed by sim and bench commands.
        public var edges: any EdgeSource
        public var buttonsHealth: @Sendable () -> String?
        /// The source's `edgesYielded`, unless a test stands in for it (see `Engine.edgeBacklog`).
        public var edgesYielded: @Sendable () -> Int?
        /// The source's `hasUnreadEdges`, unless a test stands in for it.
        public var unreadEdges: @Sendable () -> Bool
        /// Makes the core's sentences into sound (espeak-ng); nil: the box does not speak.
        public var speech: (any SpeechSynthesizer)?

        public init(led: LEDPlayer, audio: any TonePlayer, edges: any EdgeSource = SimButtons(),
                    buttonsHealth: @escaping @Sendable () -> String? = { nil }, edgesYielded: (@Sendable () -> Int?)? = nil,
                    unreadEdges: (@Sendable () -> Bool)? = nil, speech: (any SpeechSynthesizer)? = nil) {
            self.led = led
            self.audio = audio
            self.speech = speech
            self.edges = edges
            self.buttonsHealth = buttonsHealth
            self.edgesYielded = edgesYielded ?? { edges.edgesYielded }
            self.unreadEdges = unreadEdges ?? { edges.hasUnreadEdges }
        }

        /// Buttons are simulated: sim and bench commands may press them.
        public var simulatedButtons: SimButtons? { edges as? SimButtons }
    }
}
