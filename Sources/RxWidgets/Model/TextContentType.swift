/// What a text field holds (UIKit's `UITextContentType`), so browsers and password
/// managers can fill it in. The raw value is the HTML `autocomplete` token the browser
/// client puts on the input (`password` is `current-password`, as UIKit's `.password`
/// means the existing one).
public struct TextContentType: RawRepresentable, Hashable, Sendable {
    /// The HTML `autocomplete` token.
    public let rawValue: String

    /// A content type from its `autocomplete` token (any token the HTML standard lists).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A person's full name.
    public static let name = TextContentType(rawValue: "name")
    /// A given (first) name.
    public static let givenName = TextContentType(rawValue: "given-name")
    /// A family (last) name.
    public static let familyName = TextContentType(rawValue: "family-name")
    /// A nickname.
    public static let nickname = TextContentType(rawValue: "nickname")
    /// An organisation's name.
    public static let organizationName = TextContentType(rawValue: "organization")
    /// A job title.
    public static let jobTitle = TextContentType(rawValue: "organization-title")
    /// An account's user name.
    public static let username = TextContentType(rawValue: "username")
    /// The account's current password.
    public static let password = TextContentType(rawValue: "current-password")
    /// A new password (sign-up, change of password).
    public static let newPassword = TextContentType(rawValue: "new-password")
    /// A one-time code (SMS, authenticator).
    public static let oneTimeCode = TextContentType(rawValue: "one-time-code")
    /// An email address.
    public static let emailAddress = TextContentType(rawValue: "email")
    /// A telephone number.
    public static let telephoneNumber = TextContentType(rawValue: "tel")
    /// A URL.
    public static let URL = TextContentType(rawValue: "url")
    /// A full street address.
    public static let fullStreetAddress = TextContentType(rawValue: "street-address")
    /// The first line of a street address.
    public static let streetAddressLine1 = TextContentType(rawValue: "address-line1")
    /// The second line of a street address.
    public static let streetAddressLine2 = TextContentType(rawValue: "address-line2")
    /// A city.
    public static let addressCity = TextContentType(rawValue: "address-level2")
    /// A state or province.
    public static let addressState = TextContentType(rawValue: "address-level1")
    /// A postal code.
    public static let postalCode = TextContentType(rawValue: "postal-code")
    /// A country's name.
    public static let countryName = TextContentType(rawValue: "country-name")
    /// A credit card number.
    public static let creditCardNumber = TextContentType(rawValue: "cc-number")
}
