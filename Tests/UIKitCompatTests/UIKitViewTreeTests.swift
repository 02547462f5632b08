import Bindery
import BinderyTesting
import RxTesting
import UIKitCompat
import XCTest

// Screens built in code, as UIKit apps are: the page is the view tree under the
// controller's view, hosted in-process and read back as a client sees it.

/// A reusable component: a value between two buttons. Its subviews and bindings are its own.
final class RatingView: UIView {
    let stack = UIStackView()
    let minus = UIButton()
    let plus = UIButton()
    let valueLabel = UILabel()
    let value = BehaviorRelay(value: 3)
    private let bag = DisposeBag()

    override init(frame: CGRect) {
        super.init(frame: frame)
        minus.setTitle("−", for: .normal)
        plus.setTitle("+", for: .normal)
        stack.axis = .horizontal
        stack.spacing = 8
        for view in [minus, valueLabel, plus] { stack.addArrangedSubview(view) }
        addSubview(stack)
        minus.rx.tap.withLatestFrom(value).map { max($0 - 1, 0) }.bind(to: value).disposed(by: bag)
        plus.rx.tap.withLatestFrom(value).map { min($0 + 1, 5) }.bind(to: value).disposed(by: bag)
        value.map { "\($0) of 5" }.bind(to: valueLabel.rx.text).disposed(by: bag)
    }

    required init?(coder: NSCoder) { nil }
}

extension Reactive where Base: RatingView {
    /// The rating, as the component's users bind to it.
    var rating: Observable<Int> { base.value.asObservable() }
}

final class ProfileViewController: UIViewController {
    let column = UIStackView()
    let name = UILabel()
    let taste = RatingView()
    let service = RatingView()
    let summary = UILabel()
    let form = UIStackView()
    let addField = UIButton()
    let removeLast = UIButton()
    var addedFields: [UITextField] = []
    private let bag = DisposeBag()

    override func viewDidLoad() {
        super.viewDidLoad()
        name.text = "Ada"
        column.axis = .vertical
        column.spacing = 12
        form.axis = .vertical
        addField.setTitle("Add a field", for: .normal)
        removeLast.setTitle("Remove the last field", for: .normal)
        for view in [name, taste, service, summary, form, addField, removeLast] { column.addArrangedSubview(view) }
        view.addSubview(column)
        Observable.combineLatest(taste.rx.rating, service.rx.rating) { "taste \($0), service \($1)" }
            .bind(to: summary.rx.text).disposed(by: bag)
        addField.rx.tap.subscribe(onNext: { [unowned self] in
            let field = UITextField()
            field.placeholder = "Field \(addedFields.count + 1)"
            addedFields.append(field)
            form.addArrangedSubview(field)
        }).disposed(by: bag)
        removeLast.rx.tap.subscribe(onNext: { [unowned self] in
            addedFields.popLast()?.removeFromSuperview()
        }).disposed(by: bag)
    }
}

final class UIKitViewTreeTests: XCTestCase {
    private func connect() throws -> SceneTestClient {
        let registry = SceneRegistry()
        registry.register("profile") { ProfileViewController() }
        return try SceneTestClient(scene: "profile", registry: registry)
    }

    private func subviews(_ widget: SceneTestWidget?) -> [String] {
        guard case .rows(let rows)? = widget?.props["subviews"] else { return [] }
        return rows.map(\.id)
    }

    func testThePageIsTheTreeUnderTheRootViewNamedAfterProperties() throws {
        let client = try connect()
        XCTAssertEqual(client.widgets.first?.id, "view")
        XCTAssertEqual(subviews(client.widget("view")), ["column"])
        XCTAssertEqual(subviews(client.widget("column")), ["name", "taste", "service", "summary", "form", "addField", "removeLast"])
        // A component's subviews are named after its own properties, under its id.
        XCTAssertEqual(subviews(client.widget("taste")), ["taste.stack"])
        XCTAssertEqual(subviews(client.widget("service.stack")), ["service.minus", "service.valueLabel", "service.plus"])
        XCTAssertEqual(client.widget("column")?.kind, "stackView")
        XCTAssertEqual(client.widget("column")?.props["axis"], .string("vertical"))
        XCTAssertEqual(client.widget("taste.valueLabel")?.text, "3 of 5")
        XCTAssertEqual(client.widget("summary")?.text, "taste 3, service 3")
        // Leaves carry no `subviews`: a label's snapshot is what it was.
        XCTAssertNil(client.widget("name")?.props["subviews"])
    }

    func testTwoInstancesOfAComponentAreIndependent() throws {
        let client = try connect()
        XCTAssertNil(client.tap("taste.plus").errorCode)
        XCTAssertNil(client.tap("service.minus").errorCode)
        XCTAssertNil(client.tap("service.minus").errorCode)
        XCTAssertEqual(client.widget("taste.valueLabel")?.text, "4 of 5")
        XCTAssertEqual(client.widget("service.valueLabel")?.text, "1 of 5")
        XCTAssertEqual(client.widget("summary")?.text, "taste 4, service 1")
        XCTAssertEqual(client.divergence(), [])
    }

    func testFieldsAddedAtRunTimeArriveAsAKeyedPatchAndTakeInput() throws {
        let client = try connect()
        _ = client.takePatches()
        XCTAssertNil(client.tap("addField").errorCode)
        let patch = try XCTUnwrap(client.takePatches().last)
        XCTAssertEqual(patch.added.map(\.kind), ["textField"])
        let fieldID = try XCTUnwrap(patch.added.first?.id)
        XCTAssertEqual(subviews(client.widget("form")), [fieldID])

        XCTAssertNil(client.tap("addField").errorCode)
        let second = try XCTUnwrap(client.widgets.last?.id)
        XCTAssertNotEqual(second, fieldID)
        XCTAssertNil(client.type("hello", into: second).errorCode)
        let controller = try XCTUnwrap(client.controller(as: ProfileViewController.self))
        XCTAssertEqual(controller.addedFields.last?.text, "hello")
        XCTAssertEqual(subviews(client.widget("form")), [fieldID, second])

        // Past a few views, the lists change by keyed operations, not by being sent whole.
        for _ in 0..<6 { XCTAssertNil(client.tap("addField").errorCode) }
        _ = client.takePatches()
        XCTAssertNil(client.tap("addField").errorCode)
        let last = try XCTUnwrap(client.takePatches().last)
        let subviewChange = try XCTUnwrap(last.changes.first { $0.target == "form" && $0.prop == "subviews" })
        guard case .ops(let ops) = subviewChange.update else { return XCTFail("subviews sent whole: \(subviewChange)") }
        XCTAssertEqual(ops.count, 1)
        XCTAssertEqual(subviews(client.widget("form")).count, 9)
        XCTAssertEqual(client.divergence(), [])
    }

    func testARemovedViewLeavesThePageAndItsBindingsEndWithIt() throws {
        let client = try connect()
        XCTAssertNil(client.tap("addField").errorCode)
        let fieldID = try XCTUnwrap(client.widgets.last?.id)
        let controller = try XCTUnwrap(client.controller(as: ProfileViewController.self))
        var ended = false
        _ = try XCTUnwrap(controller.addedFields.last).rx.deallocated.subscribe(onNext: { ended = true })
        _ = client.takePatches()
        XCTAssertNil(client.tap("removeLast").errorCode)
        let patch = try XCTUnwrap(client.takePatches().last)
        XCTAssertEqual(patch.removed, [fieldID])
        XCTAssertTrue(ended, "the field outlived its place in the tree")
        XCTAssertNil(client.widget(fieldID))
        XCTAssertEqual(subviews(client.widget("form")), [])
        // Its id is gone on the server too: an event for it is refused.
        XCTAssertEqual(client.type("late", into: fieldID).errorCode, "unknown-target")
        XCTAssertEqual(client.divergence(), [])
    }

    func testMovingAViewWithinThePageReordersWithoutRemovingIt() throws {
        let client = try connect()
        let controller = try XCTUnwrap(client.controller(as: ProfileViewController.self))
        _ = client.takePatches()
        controller.form.addArrangedSubview(controller.summary)  // from the column into the form
        controller.column.bringSubviewToFront(controller.name)
        client.server.flush()
        let patches = client.takePatches()
        XCTAssertEqual(patches.flatMap(\.removed), [])
        XCTAssertEqual(patches.flatMap(\.added).map(\.id), [])
        XCTAssertEqual(subviews(client.widget("form")), ["summary"])
        XCTAssertEqual(subviews(client.widget("column")), ["taste", "service", "form", "addField", "removeLast", "name"])
        XCTAssertEqual(client.divergence(), [])
    }
}
