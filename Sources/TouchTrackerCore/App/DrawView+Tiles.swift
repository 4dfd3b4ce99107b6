/// The static layer as the page caches it: in square tiles, each painted
/// clipped to itself.
///
/// Why tiles: a canvas rasterizes a long, thin line a little differently
/// (up to a few levels per channel at its antialiased edge) when it is
/// clipped than when it is not, so "repaint the damaged rectangle" cannot
/// match "repaint everything" pixel for pixel. Painting every pixel the same
/// way, always as part of its tile with the tile's clip, makes a repaint of
/// some tiles exactly what a repaint of all tiles gives; and a change then
/// costs the tiles it touched, whatever the size of the drawing.
extension DrawView {
  /// The side of a tile, in points.
  public static let staticTileSize = 256.0

  /// The grid of tiles over the view as it is on screen (`screenSize`:
  /// under the page's zoom its bounds are the part of the drawing shown),
  /// columns and rows. Tiles, their sections and the layer's commands are
  /// in window coordinates; the drawing's are mapped by `transformToWindow`.
  var tileGrid: (columns: Int, rows: Int) {
    let size = DrawView.staticTileSize
    let screen = screenSize
    return (max(1, Int((screen.width / size).rounded(.up))), max(1, Int((screen.height / size).rounded(.up))))
  }

  /// The tile numbers (row by row) that `rect` meets, in order.
  func tiles(meeting rect: Rect) -> [Int] {
    let size = DrawView.staticTileSize
    let grid = tileGrid
    func index(_ value: Double, _ count: Int) -> Int { min(max(Int((value / size).rounded(.down)), 0), count - 1) }
    guard rect.maxX > 0, rect.maxY > 0, rect.minX < Double(grid.columns) * size, rect.minY < Double(grid.rows) * size
    else { return [] }
    var result: [Int] = []
    for row in index(rect.minY, grid.rows)...index(rect.maxY, grid.rows) {
      for column in index(rect.minX, grid.columns)...index(rect.maxX, grid.columns) {
        result.append(row * grid.columns + column)
      }
    }
    return result
  }

  func tileRect(_ tile: Int) -> Rect { DrawView.tileRect(tile, columns: tileGrid.columns) }

  /// Tile `tile` (row by row) of a grid `columns` wide.
  static func tileRect(_ tile: Int, columns: Int) -> Rect {
    let size = DrawView.staticTileSize
    return Rect(x: Double(tile % columns) * size, y: Double(tile / columns) * size, width: size, height: size)
  }

  /// The tiles any of `rects` meets, in order, each once. (A mask, not a
  /// `Set` or a sort: their generic code would cost the wasm kilobytes.)
  func tiles(meetingAny rects: [Rect]) -> [Int] {
    var hit = [Bool](repeating: false, count: tileGrid.columns * tileGrid.rows)
    for rect in rects {
      for tile in tiles(meeting: rect) { hit[tile] = true }
    }
    var result: [Int] = []
    for (tile, isHit) in hit.enumerated() where isHit { result.append(tile) }
    return result
  }

  /// Every tile, row by row.
  var allTiles: [Int] { Array(0..<(tileGrid.columns * tileGrid.rows)) }

  /// Each of `tiles` whole.
  func wholeSections(_ tiles: [Int]) -> [TileSection] {
    var sections: [TileSection] = []
    for tile in tiles { sections.append(TileSection(tile: tile, area: tileRect(tile))) }
    return sections
  }

  /// The parts of tiles that `rect` covers, tile by tile.
  func sections(covering rect: Rect) -> [TileSection] {
    var sections: [TileSection] = []
    for tile in tiles(meeting: rect) {
      if let area = rect.intersection(tileRect(tile)) { sections.append(TileSection(tile: tile, area: area)) }
    }
    return sections
  }

  /// The static layer in `sections`: for each, a clip to its tile, the
  /// background over its area (one point wider: the page snaps rectangles to
  /// device pixels), and every shape that meets that wider area, in the
  /// layer's order (the held line left out). A section of a whole tile is
  /// what the page paints straight into its copy; a section of part of a
  /// tile it paints apart, clipped to the whole tile (so every line is
  /// rasterized as a repaint of the tile would), and copies only the area.
  /// With `onlyLinesFrom`, no background and just the lines from that
  /// position on, over what the tiles hold: what they would hold had they
  /// been painted whole with those lines last.
  ///
  /// - Complexity: one pass over the lines (and circles), each measured once.
  func staticLayer(sections: [TileSection], onlyLinesFrom first: Int? = nil) -> RenderList {
    staticLayerSource.layer(sections: sections, onlyLinesFrom: first)
  }

  /// What the static layer is painted from, as it is now.
  var staticLayerSource: StaticLayerSource {
    StaticLayerSource(
      lines: drawing.lines, circles: drawing.circles, heldLine: lineBeforeMove == nil ? nil : selectedLineIndex,
      heldCircle: circleBeforeMove == nil ? nil : selectedCircleIndex, toWindow: transformToWindow,
      columns: tileGrid.columns)
  }
}

/// What the static layer is painted from, taken at one moment: the shapes
/// (arrays, so taking them copies nothing until the drawing changes), the
/// shapes held out of it, the view's transform and its grid of tiles. A
/// whole layer handed out a tile at a time (`PageHost.renderStaticPart`)
/// keeps painting the drawing as it was when it began, as one list would.
struct StaticLayerSource {
  let lines: [Line]
  let circles: [Circle]
  let heldLine: Int?
  let heldCircle: Int?
  let toWindow: AffineTransform
  let columns: Int

  /// See `DrawView.staticLayer(sections:onlyLinesFrom:)`.
  ///
  /// - Complexity: one pass over the lines (and circles), each measured once.
  /// `known`: the lines of each section, already found (`StaticLayerParts`).
  func layer(sections: [TileSection], onlyLinesFrom first: Int? = nil, members known: [[Int32]]? = nil) -> RenderList {
    var list = RenderList()
    // Window coordinates for the commands, the drawing's for finding what
    // meets an area. Without pan or zoom both are the same, exactly (a
    // translation by zero adds zero; the scale is 1).
    let fromWindow = toWindow.inverted() ?? .identity
    let scale = toWindow.lengthScale
    var windowAreas: [Rect] = []
    var areas: [Rect] = []
    var reach = Rect(x: 0, y: 0, width: 0, height: 0)
    for section in sections {
      let windowArea = section.area.insetBy(dx: -1, dy: -1)
      let area = fromWindow.apply(to: windowArea)
      reach = areas.isEmpty ? area : reach.union(area)
      windowAreas.append(windowArea)
      areas.append(area)
    }
    // The lines of each section, found in one pass: a section of a few
    // points among 100,000 lines costs one bounds check a line, not one per section.
    var members = known ?? [[Int32]](repeating: [], count: sections.count)  // 4 bytes a line met, not 8
    if known == nil {
      for index in (first ?? 0)..<lines.count where index != heldLine {
        let bounds = lines[index].paintedBounds
        guard bounds.intersects(reach) else { continue }
        for (section, area) in areas.enumerated() where bounds.intersects(area) {
          members[section].append(Int32(index))
        }
      }
    }
    for (section, area) in areas.enumerated() {
      list.appendClip(DrawView.tileRect(sections[section].tile, columns: columns))
      if first == nil {
        list.appendFill(windowAreas[section], color: DrawView.backgroundGray)
        for index in circles.indices where index != heldCircle {
          let circle = circles[index]
          guard circle.paintedBounds.intersects(area) else { continue }
          list.appendCircle(
            center: toWindow.apply(to: circle.center), radius: circle.radius * scale, color: circle.color,
            width: circle.width * scale)
        }
      }
      for index in members[section] {
        let line = lines[Int(index)]
        list.appendSegment(
          from: toWindow.apply(to: line.begin), to: toWindow.apply(to: line.end), color: line.color,
          width: line.width * scale)
      }
    }
    return list
  }
}

/// A whole static layer handed out a tile at a time (`PageHost.renderStaticPart`):
/// the lines are sorted into the tiles they meet, a number of them at a
/// time, then each tile's list is built alone, the same as its section of
/// the one list (`StaticLayerPartsTests`).
final class StaticLayerParts {
  let source: StaticLayerSource
  private let sections: [TileSection]
  /// Each tile's area in the drawing's coordinates, as `StaticLayerSource.layer` finds it.
  private let areas: [Rect]
  private let rows: Int
  private var members: [[Int32]]
  private var sorted = 0
  private var next = 0

  init(source: StaticLayerSource, rows: Int) {
    self.source = source
    self.rows = rows
    let fromWindow = source.toWindow.inverted() ?? .identity
    var sections: [TileSection] = []
    var areas: [Rect] = []
    for tile in 0..<(source.columns * rows) {
      let rect = DrawView.tileRect(tile, columns: source.columns)
      sections.append(TileSection(tile: tile, area: rect))
      areas.append(fromWindow.apply(to: rect.insetBy(dx: -1, dy: -1)))
    }
    (self.sections, self.areas) = (sections, areas)
    members = [[Int32]](repeating: [], count: sections.count)
  }

  /// Sorts up to `count` more lines into the tiles they meet; true once every line is.
  func sort(_ count: Int) -> Bool {
    let lines = source.lines
    let end = min(lines.count, sorted + count)
    let size = DrawView.staticTileSize
    // The tiles near a line's box on screen (2 points of slack), then the same test as the one list's.
    func cell(_ value: Double, _ cells: Int) -> Int {
      value.isNaN ? 0 : Int(min(max((value / size).rounded(.down), 0), Double(cells - 1)))
    }
    for index in sorted..<end where index != source.heldLine {
      let bounds = lines[index].paintedBounds
      let box = source.toWindow.apply(to: bounds).insetBy(dx: -2, dy: -2)
      for row in cell(box.minY, rows)...cell(box.maxY, rows) {
        for column in cell(box.minX, source.columns)...cell(box.maxX, source.columns) {
          let tile = row * source.columns + column
          if bounds.intersects(areas[tile]) { members[tile].append(Int32(index)) }
        }
      }
    }
    sorted = end
    return end == lines.count
  }

  /// The next tile's list (once every line is sorted), or nil after the last.
  func nextTile() -> RenderList? {
    guard next < sections.count else { return nil }
    let tile = next
    next += 1
    defer { members[tile] = [] }
    return source.layer(sections: [sections[tile]], members: [members[tile]])
  }
}

/// A tile of the static layer and the part of it to paint (all of it, or
/// where a change's damage lies).
struct TileSection {
  let tile: Int
  let area: Rect
}
