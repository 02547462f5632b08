import Bindery
import RxCore
import RxWidgets

/// A member of the `team` scene's directory: the row's identity is the name.
public struct TeamMember: IdentifiableType, Equatable, Sendable {
    /// The name (unique: the row's key).
    public let name: String
    /// What they do.
    public let role: String
    /// Where to write to them.
    public let email: String

    /// A member.
    public init(name: String, role: String) {
        self.name = name
        self.role = role
        self.email = "\(name.lowercased().replacingOccurrences(of: " ", with: "."))@example.com"
    }

    /// The name.
    public var identity: String { name }

    /// The name for URLs (`chen-wei`): the member screen's restoration identifier.
    public var slug: String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }
}

/// A team's section of the directory (RxDataSources' animatable section: keyed diffs).
public typealias TeamSection = AnimatableSectionModel<String, TeamMember>

/// The `team` scene's first screen (issue 12's master list): the directory in sections,
/// Edit/Done in the bar (delete and reorder), and a tap pushes the member's screen.
public final class TeamListViewController: ViewController {
    /// The directory, one section per team.
    public let tableView = TableView(style: .insetGrouped)
    /// The model: deletions and moves go here, and the table follows.
    public let sections = BehaviorRelay(value: TeamListViewController.initialSections)
    private let bag = DisposeBag()

    /// The directory as the page opens.
    public static var initialSections: [TeamSection] { [
        TeamSection(model: "Design", items: [TeamMember(name: "Ada Park", role: "Product designer"),
                                             TeamMember(name: "Bo Lindqvist", role: "Illustrator")]),
        TeamSection(model: "Engineering", items: [TeamMember(name: "Chen Wei", role: "Server engineer"),
                                                  TeamMember(name: "Dara Okafor", role: "Browser engineer"),
                                                  TeamMember(name: "Eli Navarro", role: "Site reliability")]),
        TeamSection(model: "Support", items: [TeamMember(name: "Fatima Haddad", role: "Support lead")]),
    ] }

    /// Binds the table, the Edit button and the row events.
    override public func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = "Team"
        tableView.accessibilityLabel = "Team members"
        let edit = BarButtonItem(title: "Edit", style: .plain)
        navigationItem.rightBarButtonItem = edit

        let dataSource = RxTableViewSectionedAnimatedDataSource<TeamSection>(
            configureCell: { _, _, _, member in
                let cell = TableViewCell(style: .subtitle, reuseIdentifier: "Member")
                cell.textLabel?.text = member.name
                cell.detailTextLabel?.text = member.role
                cell.accessoryType = .disclosureIndicator
                return cell
            },
            titleForHeaderInSection: { dataSource, index in dataSource[index].model })
        dataSource.titleForFooterInSection = { dataSource, index in
            let count = dataSource[index].items.count
            return count == 1 ? "1 person" : "\(count) people"
        }
        sections.bind(to: tableView.rx.items(dataSource: dataSource)).disposed(by: bag)

        edit.rx.tap
            .subscribe(onNext: { [unowned self, edit] in
                let editing = !self.tableView.isEditing
                self.tableView.setEditing(editing, animated: true)
                edit.title = editing ? "Done" : "Edit"
                edit.style = editing ? .done : .plain
            })
            .disposed(by: bag)

        // UIKit's master–detail habit: the tapped row is deselected as its screen opens.
        tableView.rx.itemSelected
            .subscribe(onNext: { [tableView] indexPath in tableView.deselectRow(at: indexPath, animated: true) })
            .disposed(by: bag)
        tableView.rx.modelSelected(TeamMember.self)
            .subscribe(onNext: { [unowned self] member in
                self.navigationController?.pushViewController(TeamMemberViewController(member: member), animated: true)
            })
            .disposed(by: bag)
        tableView.rx.itemDeleted
            .subscribe(onNext: { [sections] indexPath in
                var value = sections.value
                value[indexPath.section].items.remove(at: indexPath.row)
                sections.accept(value)
            })
            .disposed(by: bag)
        tableView.rx.itemMoved
            .subscribe(onNext: { [sections] event in
                var value = sections.value
                let member = value[event.sourceIndex.section].items.remove(at: event.sourceIndex.row)
                value[event.destinationIndex.section].items.insert(member, at: event.destinationIndex.row)
                sections.accept(value)
            })
            .disposed(by: bag)
    }
}

extension TeamListViewController: ScreenRestoring {
    /// The member whose slug is `identifier` (`chen-wei`), for a URL's screen path
    /// (`/scene/team#/chen-wei`) and the `member` parameter.
    public func viewController(forRestorationIdentifier identifier: String) -> ViewController? {
        let members = sections.value.flatMap(\.items)
        return members.first { $0.slug == identifier }.map { TeamMemberViewController(member: $0) }
    }

    /// The scene's root: the directory, with `member`'s screen pushed when given.
    ///
    /// - Throws: ``SceneParameterError`` when no member has that slug.
    public static func navigationController(openingOn member: String?) throws -> NavigationController {
        let list = TeamListViewController()
        let navigation = NavigationController(rootViewController: list)
        if let member {
            guard let screen = list.viewController(forRestorationIdentifier: member) else {
                throw SceneParameterError("member", "nobody in the team goes by '\(member)'")
            }
            navigation.pushViewController(screen, animated: false)
        }
        return navigation
    }
}

/// A member's screen, pushed from the directory: name, role and email. Its restoration
/// identifier is the member's slug, so the URL names it (`/scene/team#/chen-wei`).
public final class TeamMemberViewController: ViewController {
    /// "Product designer".
    public let roleLabel = Label()
    /// "ada.park@example.com".
    public let emailLabel = Label()
    /// "☆ Tap to mark as a favourite": a label with a tap gesture recognizer.
    public let favouriteLabel = Label()
    private let bag = DisposeBag()
    /// Who it is about.
    public let member: TeamMember

    /// The screen for `member`.
    public init(member: TeamMember) {
        self.member = member
        super.init()
        restorationIdentifier = member.slug
    }

    /// Fills in the labels and the bar's title.
    override public func viewDidLoad() {
        super.viewDidLoad()
        navigationItem.title = member.name
        roleLabel.text = "Role: \(member.role)"
        emailLabel.text = "Email: \(member.email)"
        // A plain label made tappable (UITapGestureRecognizer): the browser makes it a button.
        let tap = TapGestureRecognizer()
        favouriteLabel.addGestureRecognizer(tap)
        tap.rx.event
            .scan(false) { isFavourite, _ in !isFavourite }
            .startWith(false)
            .map { $0 ? "★ A favourite (tap to unmark)" : "☆ Tap to mark as a favourite" }
            .bind(to: favouriteLabel.rx.text)
            .disposed(by: bag)
    }
}
