/// How a host brings its cached copy of the tiled static layer up to date
/// (`DrawView.staticLayerUpdate(since:)`). Every list is in tile sections:
/// a clip to the tile, then what to paint in it.
public enum StaticLayerUpdate {
  /// Clear the copy and paint every tile.
  case whole(RenderList)
  /// Paint the lines finished since over the tiles they meet.
  case append(RenderList)
  /// Paint these rectangles (the changes' damage) again. Each section is
  /// the part of one rectangle in one tile: it fills that part with the
  /// background and paints the shapes that meet it, clipped to the tile;
  /// the host paints it apart and copies only the part (see
  /// `DrawView.staticLayer(sections:)`).
  case repaint([Rect], RenderList)
}
