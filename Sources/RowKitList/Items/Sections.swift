import Dispatch
import Foundation
import RowKitCells

// Items and sections: flat indices ↔ index paths.
extension ListEngine {
    func flatIndex(_ path: IndexPath) -> Int {
        Int(sectionItems.prefix(path.section)) + (sections[path.section].hasHeader ? 1 : 0) + path.row
    }

    func indexPath(ofFlat index: Int) -> IndexPath {
        let (section, before) = sectionItems.search(Int64(index))
        let offset = index - Int(before)
        let s = min(section, sections.count - 1)
        return IndexPath(section: s, row: sections[s].hasHeader ? offset - 1 : offset)
    }

    func rebuildSections() {
        sectionItems = FenwickTree(sections.map { Int64($0.itemCount) })
    }
}
