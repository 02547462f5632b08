import Foundation

/// Something that decodes `Data` into a `Decodable` type, such as `JSONDecoder`.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Each element decoded as `type` with `decoder`; a decoding error ends the sequence.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
