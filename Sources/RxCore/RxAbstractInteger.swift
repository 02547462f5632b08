/// The integer types `interval` and `timer` can count in, as in RxSwift.
public typealias RxAbstractInteger = FixedWidthInteger
