/// Virtual time in ticks of a ``TestScheduler``.
public typealias TestTime = Int
