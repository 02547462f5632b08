@testable import Bindery
import Foundation
import RxWidgets

/// A seeded generator (SplitMix64): the same messages on every run and every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random messages of both directions, with the strings and numbers a codec gets wrong:
/// quotes, backslashes, control characters, separators, non-BMP scalars, extreme and
/// fractional numbers.
struct MessageGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Pieces odd strings are made of.
    static let pieces = [
        "", "a", "Zz", "\"", "\\", "\\\"", "\n", "\r\n", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}",
        "\u{80}", "\u{2028}", "\u{2029}", "\u{FEFF}", "é", "e\u{301}", "日本語", "😀", "𝄞", "👩‍👩‍👧", "\u{10FFFF}",
        "/", "</script>", "\\u0041", "{}", "[", ",", ":", " ", "null", "0",
    ]

    /// Numbers at the edges of what JSON and `Double` carry.
    static let edgeNumbers: [Double] = [
        0, -0.0, 1, -1, 0.25, -3.5, 0.1, 1e-7, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
        -1.7976931348623157e308, 9_007_199_254_740_992, -9_007_199_254_740_992, 9_007_199_254_740_991, 1e16, 1e21,
        123_456_789.123_456_789, -0.000_001,
    ]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func string() -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
    }

    /// An integer a JSON number holds exactly (`|n| ≤ 2^53`).
    mutating func integer(nonNegative: Bool = false) -> Int {
        let limit = 9_007_199_254_740_992
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Int.random(in: 0...9, using: &random)
        case 1: return nonNegative ? limit : [limit, -limit].randomElement(using: &random)!
        default: return Int.random(in: (nonNegative ? 0 : -limit)...limit, using: &random)
        }
    }

    mutating func number() -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Self.edgeNumbers.randomElement(using: &random)!
        case 1: return Double(integer())
        case 2: return Double.random(in: -1e6...1e6, using: &random)
        default:
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func optional<Value>(_ make: (inout Self) -> Value) -> Value? {
        chance(50) ? make(&self) : nil
    }

    /// A value a client may send (`value` of an event).
    mutating func eventValue() -> WidgetValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2: return .number(number())
        case 3: return .string(string())
        default: return .strings((0..<Int.random(in: 0...3, using: &random)).map { _ in string() })
        }
    }

    /// A widget property's value; colours and dates only when `lossy`.
    mutating func widgetValue(depth: Int = 0, lossy: Bool) -> WidgetValue {
        switch Int.random(in: 0..<(lossy ? 8 : 6), using: &random) {
        case 0...4: return eventValue()
        case 5 where depth < 2:
            return .rows((0..<Int.random(in: 1...3, using: &random)).map { _ in row(depth: depth + 1, lossy: lossy) })
        case 6:
            return .color(Color(red: CGFloat(Int.random(in: 0...255, using: &random)) / 255, green: 0.5,
                                blue: CGFloat(Int.random(in: 0...255, using: &random)) / 255, alpha: 1))
        case 7: return .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000_000, using: &random)) / 1000))
        default: return .string(string())
        }
    }

    mutating func row(depth: Int = 0, lossy: Bool) -> ListRow {
        var fields: [String: WidgetValue] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let key = string()
            if key != "id" { fields[key] = widgetValue(depth: depth, lossy: lossy) }
        }
        return ListRow(id: string(), fields: fields)
    }

    mutating func widget(lossy: Bool) -> WidgetSnapshot {
        var properties: [String: WidgetValue] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &random) { properties[string()] = widgetValue(lossy: lossy) }
        return WidgetSnapshot(id: string(), kind: string(), properties: properties)
    }

    // MARK: - Client messages

    mutating func event() -> EventMessage {
        EventMessage(seq: optional { $0.integer(nonNegative: true) }, target: string(), event: string(),
                     value: optional { $0.eventValue() }, row: optional { $0.string() },
                     toSection: optional { $0.string() }, toIndex: optional { $0.integer() },
                     action: optional { $0.integer() })
    }

    mutating func clientMessage() -> ClientMessage {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return .resync(seq: optional { $0.integer(nonNegative: true) })
        case 1: return .bye
        case 2: return .rows(RowsRequest(seq: optional { $0.integer(nonNegative: true) }, target: string(),
                                         from: integer(), to: integer()))
        case 3: return .upload(upload())
        default: return .event(event())
        }
    }

    mutating func upload() -> UploadMessage {
        let step: UploadMessage.Step
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            // An empty type is read as application/octet-stream: not generated.
            step = .begin(name: string(), contentType: "x" + string(), size: integer(nonNegative: true), last: chance(50))
        case 1:
            step = .chunk(offset: integer(nonNegative: true),
                          data: Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
        case 2: step = .end
        default: step = .cancel
        }
        let id = step == .cancel ? optional { $0.string() } : string()
        return UploadMessage(seq: optional { $0.integer(nonNegative: true) }, target: string(), upload: id, step: step)
    }

    // MARK: - Server messages

    /// A patch of plain values only: what the tree-free path reads.
    mutating func plainPatch() -> PatchMessage {
        PatchMessage(ack: optional { $0.integer() }, changes: (0..<Int.random(in: 0...5, using: &random)).map { _ in
            let value: WidgetValue
            switch Int.random(in: 0..<4, using: &random) {
            case 0: value = .null
            case 1: value = .bool(chance(50))
            case 2: value = .number(number())
            default: value = .string(string())
            }
            return PatchChange(target: string(), prop: string(), value: value)
        })
    }

    mutating func patch(lossy: Bool) -> PatchMessage {
        if chance(30) { return plainPatch() }
        let changes = (0..<Int.random(in: 0...5, using: &random)).map { _ -> PatchChange in
            guard chance(30) else { return PatchChange(target: string(), prop: string(), value: widgetValue(lossy: lossy)) }
            let ops = (0..<Int.random(in: 0...4, using: &random)).map { _ -> ListChange in
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return .insert(index: integer(), rows: (0..<Int.random(in: 0...2, using: &random)).map { _ in row(lossy: lossy) })
                case 1: return .remove(index: integer(), count: integer())
                case 2: return .update(index: integer(), row: row(lossy: lossy))
                default: return .move(from: integer(), to: integer())
                }
            }
            return PatchChange(target: string(), prop: string(), update: .ops(ops))
        }
        return PatchMessage(ack: optional { $0.integer() },
                            removed: (0..<Int.random(in: 0...2, using: &random)).map { _ in string() },
                            added: (0..<Int.random(in: 0...2, using: &random)).map { _ in widget(lossy: lossy) },
                            changes: changes)
    }

    mutating func layout(depth: Int = 0) -> SceneLayout {
        let alignments: [SceneLayout.Alignment] = [.fill, .leading, .center, .trailing, .firstBaseline]
        let distributions: [SceneLayout.Distribution] = [.fill, .fillEqually, .equalSpacing]
        func children(_ generator: inout Self) -> [SceneLayout] {
            (0..<Int.random(in: 0...3, using: &generator.random)).map { _ in generator.layout(depth: depth + 1) }
        }
        switch depth < 3 ? Int.random(in: 0..<6, using: &random) : 0 {
        case 0: return .widget(string())
        case 1: return .widget(string(), caption: string())
        case 2: return .row(children(&self), alignment: alignments.randomElement(using: &random)!,
                            distribution: distributions.randomElement(using: &random)!, spacing: optional { $0.number() })
        case 3: return .column(children(&self), alignment: alignments.randomElement(using: &random)!,
                               distribution: distributions.randomElement(using: &random)!, spacing: optional { $0.number() })
        case 4: return .grid(children(&self), columns: Int.random(in: 1...12, using: &random), spacing: optional { $0.number() })
        default: return .group(string(), children(&self))
        }
    }

    mutating func serverMessage(lossy: Bool) -> ServerMessage {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return .error(ErrorMessage(ack: optional { $0.integer() }, code: ErrorCode.allCases.randomElement(using: &random)!,
                                       message: string(), target: optional { $0.string() }))
        case 1: return .bye(reason: string())
        case 2:
            return .rows(RowsMessage(ack: optional { $0.integer() }, target: string(), from: integer(), count: integer(),
                                     rows: (0..<Int.random(in: 0...3, using: &random)).map { _ in row(lossy: lossy) }))
        case 3:
            var scene = SceneMessage(session: string(), scene: string(), title: string(), resumed: chance(50),
                                     widgets: (0..<Int.random(in: 0...4, using: &random)).map { _ in widget(lossy: lossy) },
                                     layout: optional { $0.layout() }, ack: optional { $0.integer() },
                                     description: optional { $0.string() })
            scene.restored = optional { $0.chance(50) }
            return .scene(scene)
        default: return .patch(patch(lossy: lossy))
        }
    }
}

/// A server message as ``MessageDecoder`` reads it back from its JSON: colours and dates
/// as the strings they were sent as, an empty list of rows as an empty list of strings, a
/// non-finite number as null, a row's field named `id` gone (its id shadows it).
func asDecoded(_ message: ServerMessage) -> ServerMessage {
    func value(_ value: WidgetValue) -> WidgetValue {
        switch value {
        case .color(let color): return .string(color.hexString)
        case .date(let date): return .string(ISO8601.localString(from: date))
        case .number(let number) where !number.isFinite: return .null
        case .rows(let rows): return rows.isEmpty ? .strings([]) : .rows(rows.map(row))
        default: return value
        }
    }
    func row(_ row: ListRow) -> ListRow {
        ListRow(id: row.id, fields: row.fields.filter { $0.key != "id" }.mapValues(value))
    }
    func widget(_ widget: WidgetSnapshot) -> WidgetSnapshot {
        WidgetSnapshot(id: widget.id, kind: widget.kind, properties: widget.properties.mapValues(value))
    }
    func change(_ change: PatchChange) -> PatchChange {
        switch change.update {
        case .value(let new): return PatchChange(target: change.target, prop: change.prop, value: value(new))
        case .ops(let ops):
            return PatchChange(target: change.target, prop: change.prop, update: .ops(ops.map { op in
                switch op {
                case .insert(let index, let rows): return .insert(index: index, rows: rows.map(row))
                case .update(let index, let changed): return .update(index: index, row: row(changed))
                default: return op
                }
            }))
        }
    }
    switch message {
    case .scene(var scene):
        scene.widgets = scene.widgets.map(widget)
        return .scene(scene)
    case .patch(var patch):
        patch.added = patch.added.map(widget)
        patch.changes = patch.changes.map(change)
        return .patch(patch)
    case .rows(var rows):
        rows.rows = rows.rows.map(row)
        return .rows(rows)
    case .error, .bye:
        return message
    }
}
