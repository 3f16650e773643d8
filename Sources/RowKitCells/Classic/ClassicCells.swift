import RowKitText

/// The five classic cells of the seed articles, built in, each with sample rows.
///
/// Fonts map to the default sans family (DejaVu Sans) at the articles' sizes; line heights are
/// round(1.25 × size) px, as `rowkit measure` assumes, except where an article's frame fixes it.
/// Every text takes its direction from its first strong character (`.auto`), so an Arabic or
/// Hebrew row reads right to left as `rowkit draw` lays it out.
public enum ClassicCells {
    /// All five (plus the growing variant of `project`), by name.
    public static let all: [CellTemplate] = [captionText, filterList, custom, project, projectGrowing, label]

    /// The template with this name (the five classic cells and `section-header`), or nil.
    public static func named(_ name: String) -> CellTemplate? { (all + [sectionHeader]).first { $0.name == name } }

    /// A plain section header: a bold 14 px title (field `title`) on a light gray band.
    public static let sectionHeader = CellTemplate(name: "section-header", samples: [["title": "Section"]]) {
        CellLayout.text(field: "title", appearance(size: 14, weight: .bold, color: Color(white: 0.3)))
            .padding(Insets(top: 4, left: 10, bottom: 4, right: 10))
            .background(Background(fill: .color(Color(white: 0.93))))
    }

    static func appearance(size: Double, weight: FontWeight = .regular, color: Color = .black,
                           lineHeight: Double? = nil, shadow: TextShadow? = nil) -> TextAppearance {
        TextAppearance(style: TextStyle(font: FontDescriptor(family: "DejaVu Sans", weight: weight), size: size,
                                        lineHeight: .pixels(lineHeight ?? (1.25 * size).rounded()), color: color,
                                        direction: .auto),
                       shadow: shadow)
    }

    static let darkGray = Color(white: 1.0 / 3)   // UIColor.darkGrayColor
    static let gray = Color(white: 0.5)           // UIColor.grayColor
    static let selection = Background.Fill.verticalGradient(top: Color(hex: "#3d8ff0")!, bottom: Color(hex: "#1a5fd0")!)

    /// Seed 000, CaptionAndTextCell: a bold 13 caption and a regular 13 body in dark gray, on
    /// one line when both fit with 15 px between them, else the body wraps below the caption;
    /// 5 px margins; texts trimmed; a light vertical gradient behind.
    public static let captionText = CellTemplate(
        name: "caption-text",
        samples: [
            ["caption": "Short", "body": "Both fit on one line."],
            ["caption": "Breaking news", "body": "When the body is too long to sit next to the caption, it wraps below it, word by word, at whatever width the table has."],
            ["caption": "  Trimmed  ", "body": "\n  Surrounding white space and newlines are trimmed first.  \n"],
            ["caption": "A caption long enough to wrap onto a second line by itself at portrait width", "body": "and a body below."],
            ["caption": "Mixed", "body": "Bonjour 🇫🇷, 你好, مرحبا — any script."],
        ]
    ) {
        CellLayout.sideBySide(SideBySideElement(
            first: .text(field: "caption", appearance(size: 13, weight: .bold)),
            second: .text(field: "body", appearance(size: 13, color: darkGray)),
            spacing: 15, verticalSpacing: 5))
        .padding(Insets(5))
        .background(Background(fill: .verticalGradient(top: .white, bottom: Color(white: 0.9)), highlightedFill: selection))
    }

    /// Seed 001, FilterListCell: title, subtitle and content stacked in a 220 px column, 15 px
    /// top and bottom padding, 3 px between title and subtitle, 7 px before the content, and at
    /// least 88 px tall (the article's MAX(height, 88)).
    public static let filterList = CellTemplate(
        name: "filter-list",
        samples: [
            ["title": "Nearby", "subtitle": "Within 5 km", "content": "Shows places close to you, sorted by distance."],
            ["title": "Open now", "subtitle": "Hours", "content": "Lorem ipsum dolor sit er elit lamet, consectetaur cillium adipisicing pecu, sed do eiusmod tempor incididunt."],
            ["title": "Price", "subtitle": "", "content": "$"],
            ["title": "A filter with a title long enough to wrap", "subtitle": "Subtitles wrap too when they are long", "content": "Content of any length grows the cell; the column stays 220 px wide in portrait and landscape."],
        ]
    ) {
        CellLayout.vstack(spacing: 7) {
            CellLayout.vstack(spacing: 3) {
                CellLayout.text(field: "title", appearance(size: 15, weight: .bold))
                CellLayout.text(field: "subtitle", appearance(size: 13, color: gray))
            }
            CellLayout.text(field: "content", appearance(size: 13))
        }
        .size(width: 220)
        .padding(Insets(top: 15, left: 15, bottom: 15, right: 15))
        .size(minHeight: 88)
        .background(Background(fill: .color(.white), highlightedFill: selection))
    }

    /// Seed 002, CustomCell: a bold 16 main label (gray 0.45) and a 14 sub label (gray 0.55)
    /// side by side, 10 px horizontal and 4 px vertical margins, a white 1 px text shadow; the
    /// highlighted state drops the shadow and turns the text white. At least 44 px tall (the
    /// table's default row height), labels centered vertically as UILabel centers its text; the
    /// sub label keeps to one line with an ellipsis.
    public static let custom = CellTemplate(
        name: "custom",
        samples: [
            ["main": "Inbox", "sub": "12 unread"],
            ["main": "Drafts", "sub": "none"],
            ["main": "Archive", "sub": "Everything older than a month, kept forever and searchable"],
        ]
    ) {
        CellLayout.hstack(spacing: 10, alignment: .center, flexible: 1) {
            CellLayout.text(field: "main", appearance(size: 16, weight: .bold, color: Color(white: 0.45), shadow: TextShadow(dx: 0, dy: 1, color: .white)), maxLines: 1)
            CellLayout.text(field: "sub", appearance(size: 14, color: Color(white: 0.55), shadow: TextShadow(dx: 0, dy: 1, color: .white)), maxLines: 1)
        }
        .size(minHeight: 36, verticalAlignment: .center)
        .padding(Insets(horizontal: 10, vertical: 4))
        .background(Background(fill: .verticalGradient(top: Color(white: 0.97), bottom: Color(white: 0.88)), highlightedFill: selection))
    }

    static let projectSamples: [RowData] = [
        ["icon": "niftywow", "project": "NiftyWow", "description": "Oh you just can’t imagine.", "logo1": "fruit", "logo2": "cat"],
        ["icon": "amazingwhizbang", "project": "AmazingWhizBang", "description": "Much cooler than lame stuff.", "logo1": "fruit", "logo2": "bird"],
        ["icon": "woahsupercool", "project": "WoahSuperCool", "description": "No beer and no TV make Colin something something. No beer and no TV make Colin something something. No beer and no TV make Colin something something.", "logo1": "bird", "logo2": "cat"],
    ]

    static func projectFrames(descriptionHeight: Double?) -> CellLayout {
        .frames([
            FramedElement(x: 5, y: 5, width: 40, height: 40, child: .image(field: "icon", width: 40, height: 40)),
            FramedElement(x: 50, y: 0, width: 245, height: 20, child: .text(field: "project", appearance(size: 17, lineHeight: 20))),
            FramedElement(x: 50, y: 20, width: 245, height: descriptionHeight, child: .text(field: "description", appearance(size: 12, color: gray))),
            FramedElement(x: 295, y: 5, width: 20, height: 20, child: .image(field: "logo1", width: 20, height: 20)),
            FramedElement(x: 295, y: 25, width: 20, height: 20, child: .image(field: "logo2", width: 20, height: 20)),
        ])
    }

    /// Seed 003, the project cell at the article's frames: 40×40 icon at (5,5), 17 px title at
    /// (50,0,245,20), 12 px gray word-wrapped description at (50,20,245,30), 20×20 logos at
    /// (295,5) and (295,25); the cell is 50 px tall and clips a long description, as the
    /// article's did.
    public static let project = CellTemplate(name: "project", samples: projectSamples) {
        projectFrames(descriptionHeight: 30)
            .size(height: 50)
            .background(Background(fill: .color(.white), highlightedFill: selection))
    }

    /// Seed 003's cell fixed: the description frame grows with its text and the cell with it
    /// (at least 50 px, 5 px below the description).
    public static let projectGrowing = CellTemplate(name: "project-growing", samples: projectSamples) {
        projectFrames(descriptionHeight: nil)
            .padding(Insets(top: 0, left: 0, bottom: 5, right: 0))
            .size(minHeight: 50)
            .background(Background(fill: .color(.white), highlightedFill: selection))
    }

    /// Seed 004: one 14 px word-wrapped label, 10 px margin all round, text at least 44 px tall
    /// (a short text centered in those 44 px, as UILabel draws it).
    public static let label = CellTemplate(
        name: "label",
        samples: [
            ["text": "Short text."],
            ["text": "When the text is short, it might fit in the normal cell label; however, if the text gets longer, the cell resizes so that you can display the complete content."],
            ["text": "Calculating dynamic cell heights is really not too hard: all you need is the width and the size of the text in a certain font. RowKit does exactly that, with the same layout for measuring and for drawing, so the label can never be clipped or leave a gap, in portrait or in landscape."],
        ]
    ) {
        CellLayout.text(field: "text", appearance(size: 14))
            .size(minHeight: 44, verticalAlignment: .center)
            .padding(Insets(10))
            .background(Background(fill: .color(.white), highlightedFill: selection))
    }
}
