import BinderyDemo
import Bindery
import BinderyTesting
import XCTest

final class LoginSceneTests: XCTestCase {
    func testTheFormStartsEmptyWithTheButtonDisabled() throws {
        let client = try demoClient("login")
        XCTAssertEqual(client.widgets.map(\.id), ["email", "password", "loginButton", "status"])
        XCTAssertEqual(client.widget("password")?["isSecureTextEntry"], .bool(true))
        XCTAssertEqual(client.widget("email")?["isSecureTextEntry"], .bool(false))
        XCTAssertEqual(client.widget("loginButton")?.isEnabled, false)
        XCTAssertEqual(client.widget("status")?.text, "")
        XCTAssertEqual(client.tap("loginButton").errorCode, "disabled")
    }

    func testTheButtonIsEnabledOnlyForTenCharacterEmailsAndFourCharacterPasswords() throws {
        let client = try demoClient("login")
        XCTAssertEqual(client.type("me@ex.com", into: "email").changeDescriptions, [], "9 characters")
        XCTAssertEqual(client.type("1234", into: "password").changeDescriptions, [])
        XCTAssertEqual(client.type("me@exa.com", into: "email").changeDescriptions, ["loginButton.isEnabled = true"])
        XCTAssertEqual(client.type("123", into: "password").changeDescriptions, ["loginButton.isEnabled = false"])
        XCTAssertEqual(client.type("1234", into: "password").changeDescriptions, ["loginButton.isEnabled = true"])

        let viewModel = try XCTUnwrap(client.controller(as: LoginViewController.self)?.viewModel)
        XCTAssertEqual(viewModel.email, "me@exa.com", "the fields are bound to the view model")
        XCTAssertEqual(viewModel.password, "1234")
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheViewModelWritesBackToTheFields() throws {
        let client = try demoClient("login")
        let viewModel = try XCTUnwrap(client.controller(as: LoginViewController.self)?.viewModel)
        viewModel.email = "admin@example.com"
        client.server.flush()
        XCTAssertEqual(client.takePatches(), [PatchMessage(ack: nil, changes: [
            PatchChange(target: "email", prop: "text", value: .string("admin@example.com")),
        ])], "pushed: no event caused it")
        XCTAssertEqual(client.widget("email")?.text, "admin@example.com")
    }

    func testSigningInGoesDisabledEnabledExecutingSignedIn() throws {
        let client = try demoClient("login")
        client.type("user@example.com", into: "email")
        XCTAssertEqual(client.widget("loginButton")?.isEnabled, false)
        client.type("hunter2", into: "password")
        XCTAssertEqual(client.widget("loginButton")?.isEnabled, true)
        _ = client.takePatches()

        // The tap starts the work: "Signing in…" and the button disabled while executing.
        XCTAssertEqual(client.tap("loginButton").changeDescriptions,
                       ["status.text = \"Signing in…\"", "loginButton.isEnabled = false"])
        XCTAssertEqual(client.tap("loginButton").errorCode, "disabled", "a second tap meets a disabled button")

        client.advance(by: 0)
        XCTAssertEqual(client.widget("status")?.text, "Signing in…", "nothing happens before the second is up")
        XCTAssertEqual(client.takePatches().count, 1)

        client.advance(by: 1)
        XCTAssertEqual(client.widget("status")?.text, "Signed in as user@example.com")
        XCTAssertEqual(client.widget("loginButton")?.isEnabled, true)
        // Pushed (no ack); the work's result and the action's end are separate timer
        // callbacks, so they may come in one patch or two.
        let pushed = client.takePatches()
        XCTAssertEqual(pushed.map(\.ack), pushed.map { _ in nil })
        XCTAssertEqual(pushed.flatMap(\.changes), [
            PatchChange(target: "status", prop: "text", value: .string("Signed in as user@example.com")),
            PatchChange(target: "loginButton", prop: "isEnabled", value: .bool(true)),
        ])
        XCTAssertEqual(client.scheduler.clock, 1)
        XCTAssertEqual(client.divergence(), [])
    }

    func testTheSignedInEmailIsTheOneAtTheTap() throws {
        let client = try demoClient("login")
        client.type("user@example.com", into: "email")
        client.type("hunter2", into: "password")
        client.tap("loginButton")
        client.type("someone@else.org", into: "email")
        client.advance(by: 1)
        XCTAssertEqual(client.widget("status")?.text, "Signed in as user@example.com")
    }
}

final class LoginSceneReturnKeyTests: XCTestCase {
    func testReturnInTheFormSignsInOnceEnabled() throws {
        let client = try demoClient("login")
        client.type("user@example.com", into: "email")
        // Return before the form is complete: the action is not enabled, nothing happens.
        XCTAssertEqual(client.send(event: "editingDidEndOnExit", to: "email", value: "user@example.com").changeDescriptions, [])
        client.type("hunter2", into: "password")
        _ = client.takePatches()
        // Return in the password field is the form's submit (UIKit's editingDidEndOnExit).
        XCTAssertEqual(client.send(event: "editingDidEndOnExit", to: "password", value: "hunter2").changeDescriptions,
                       ["status.text = \"Signing in…\"", "loginButton.isEnabled = false"])
        client.advance(by: 1)
        XCTAssertEqual(client.widget("status")?.text, "Signed in as user@example.com")
    }

    func testTheFieldsSayWhatTheyHoldForAutofill() throws {
        let client = try demoClient("login")
        XCTAssertEqual(client.widget("email")?["textContentType"], .string("username"))
        XCTAssertEqual(client.widget("password")?["textContentType"], .string("current-password"))
        XCTAssertEqual(client.widget("email")?["accessibilityLabel"], .string("Email"))
        XCTAssertNil(client.widget("status")?["accessibilityLabel"], "sent only when set")
    }
}
