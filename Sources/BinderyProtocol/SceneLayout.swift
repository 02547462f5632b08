/// How the auto-rendered page arranges a scene's widgets: a tree of rows, columns, grids
/// and titled groups whose leaves are widget ids, with `UIStackView`'s vocabulary for
/// alignment, distribution and spacing (points, drawn as CSS pixels).
///
/// On the wire (`"layout"` in the `scene` message, PROTOCOL.md) a widget is its id as a
/// string (or `{"widget": id, "caption": "…"}` with a caption), a row is
/// `{"row": [...]}`, a column `{"column": [...]}`, a grid `{"grid": [...], "columns": n}`
/// and a titled group `{"group": "Title", "children": [...]}`; `alignment`,
/// `distribution` and `spacing` are written only when not the default.
///
/// ```swift
/// .column([
///     .widget("display", caption: "Result"),
///     .grid(keys.map { .widget($0) }, columns: 4, spacing: 8),
/// ])
/// ```
public indirect enum SceneLayout: Equatable, Sendable {
    /// One widget, by id. Its caption on the page comes from the app: `caption` when
    /// given, else the widget's `accessibilityLabel`, else a `Label` just before it in a
    /// row (see docs/Client.md); never from the id.
    case widget(String, caption: String? = nil)
    /// Children side by side (a horizontal `UIStackView`); wraps on narrow screens
    /// unless `distribution` is `.fillEqually`.
    case row([SceneLayout], alignment: Alignment = .fill, distribution: Distribution = .fill, spacing: Double? = nil)
    /// Children stacked top to bottom (a vertical `UIStackView`).
    case column([SceneLayout], alignment: Alignment = .fill, distribution: Distribution = .fill, spacing: Double? = nil)
    /// Children in `columns` equal columns, filled row by row (a keypad); every cell
    /// keeps its column on every screen width.
    case grid([SceneLayout], columns: Int, spacing: Double? = nil)
    /// Children stacked under a heading.
    case group(String, [SceneLayout])

    /// How children line up across a row or column (`UIStackView.Alignment`): `top` and
    /// `leading` are the same edge on the wire (`"leading"`), as are `bottom` and
    /// `trailing`.
    public enum Alignment: String, Equatable, Sendable {
        /// Stretched to fill the stack's cross axis (the default).
        case fill
        /// At the start: the top of a row, the leading edge of a column.
        case leading
        /// Centred.
        case center
        /// At the end: the bottom of a row, the trailing edge of a column.
        case trailing
        /// A row's children aligned on their first line of text.
        case firstBaseline

        /// The top of a row (`leading`).
        public static let top = Alignment.leading
        /// The bottom of a row (`trailing`).
        public static let bottom = Alignment.trailing
    }

    /// How children share a row's or column's length (`UIStackView.Distribution`).
    public enum Distribution: String, Equatable, Sendable {
        /// Each child takes what it needs; the rest goes to the flexible ones (the default).
        case fill
        /// Every child gets the same length (a row of keys).
        case fillEqually
        /// Children keep their size, with equal space between them.
        case equalSpacing
    }
}
