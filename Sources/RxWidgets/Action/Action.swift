import RxCore

/// An ``Action`` that takes no input and delivers nothing: what a button runs.
public typealias CocoaAction = Action<Void, Void>

/// A unit of work started by inputs, with RxSwiftCommunity/Action's behaviour: it runs
/// one execution at a time, only while `enabledIf` is true, and publishes its results,
/// errors and state as sequences.
///
/// - ``enabled`` is `!executing && enabledIf`; it starts `false` and, with the default
///   `enabledIf` of `just(true)`, is `true` by the time `init` returns.
/// - Each input sent to ``inputs`` (or given to ``execute(_:)``) while enabled calls
///   `workFactory` once; its observable is shared (replay 1, forever). An input while
///   disabled runs nothing and ``errors`` emits ``ActionError/notEnabled``.
/// - ``elements`` carries every execution's elements (their errors swallowed);
///   ``errors`` carries `notEnabled` and each work error as `underlyingError`;
///   ``executing`` is `false`, then `true`/`false` around each execution.
///
/// Like the widgets it drives, an action is meant for the main loop.
public final class Action<Input, Element> {
    /// Makes the work for one input.
    public typealias WorkFactory = (Input) -> Observable<Element>

    /// The condition given to `init` (without the executing state).
    public let _enabledIf: Observable<Bool>

    /// Makes the work for one input.
    public let workFactory: WorkFactory

    /// Inputs that start an execution (when enabled). Only `next` is forwarded: a
    /// bound sequence completing or failing does not end the action.
    public let inputs: AnyObserver<Input>

    /// `notEnabled` for each input that arrived while disabled, `underlyingError` for each
    /// failed execution.
    public let errors: Observable<ActionError>

    /// The elements of every execution (their errors are not forwarded here).
    public let elements: Observable<Element>

    /// Whether an execution is running: `false` first, then `true`/`false` around each.
    /// Replays the latest value.
    public let executing: Observable<Bool>

    /// Each execution's (shared) work, as it starts.
    public let executionObservables: Observable<Observable<Element>>

    /// Whether an input would run now: `!executing && enabledIf`. Replays the latest
    /// value.
    public let enabled: Observable<Bool>

    private let disposeBag = DisposeBag()

    /// An action running `workFactory` for each input while `enabledIf`'s latest value is
    /// `true` and no execution is running.
    public init(
        enabledIf: Observable<Bool> = Observable.just(true),
        workFactory: @escaping WorkFactory
    ) {
        _enabledIf = enabledIf
        self.workFactory = workFactory

        let enabledSubject = BehaviorSubject<Bool>(value: false)
        enabled = enabledSubject.asObservable()

        let errorsSubject = PublishSubject<ActionError>()
        errors = errorsSubject.asObservable()

        let inputsSubject = PublishSubject<Input>()
        inputs = AnyObserver { event in
            if case .next(let input) = event {
                inputsSubject.onNext(input)
            }
        }

        executionObservables = inputsSubject
            .withLatestFrom(enabled) { input, enabled in (input, enabled) }
            .flatMap { input, enabled -> Observable<Observable<Element>> in
                guard enabled else {
                    errorsSubject.onNext(.notEnabled)
                    return Observable.empty()
                }
                let work = workFactory(input)
                    .do(onError: { errorsSubject.onNext(.underlyingError($0)) })
                    .share(replay: 1, scope: .forever)
                return Observable.just(work)
            }
            .share()

        elements = executionObservables
            .flatMap { execution in
                execution.catch { _ in Observable.empty() }
            }

        executing = executionObservables
            .flatMap { execution -> Observable<Bool> in
                let running = execution
                    .flatMap { _ in Observable<Bool>.empty() }
                    .catch { _ in Observable.empty() }
                return Observable.concat([Observable.just(true), running, Observable.just(false)])
            }
            .startWith(false)
            .share(replay: 1, scope: .forever)

        Observable
            .combineLatest(executing, enabledIf) { !$0 && $1 }
            .bind(to: enabledSubject)
            .disposed(by: disposeBag)
    }

    /// Sends `value` to ``inputs`` and returns that execution's elements (replayed to any
    /// subscriber), failing with ``ActionError/notEnabled`` if the action was disabled or
    /// already executing, or with ``ActionError/underlyingError(_:)`` if the work failed.
    @discardableResult
    public func execute(_ value: Input) -> Observable<Element> {
        let subject = ReplaySubject<Element>.createUnbounded()

        // Whichever comes first for this input: its execution, or an error.
        let work = executionObservables
            .map { execution in
                execution.catch { error in throw ActionError.underlyingError(error) }
            }
        let failure = errors
            .map { error in Observable<Element>.error(error) }

        Observable.merge(work, failure)
            .take(1)
            .flatMap { $0 }
            .subscribe(subject)
            .disposed(by: disposeBag)

        inputs.onNext(value)
        return subject.asObservable()
    }
}

extension Action {
    /// The work errors only (``errors`` without `notEnabled`).
    public var underlyingError: Observable<Error> {
        errors.flatMap { error -> Observable<Error> in
            guard case .underlyingError(let underlying) = error else { return Observable.empty() }
            return Observable.just(underlying)
        }
    }
}

extension Action where Input == Void {
    /// Executes the action (see ``execute(_:)``).
    @discardableResult
    public func execute() -> Observable<Element> {
        execute(())
    }
}
