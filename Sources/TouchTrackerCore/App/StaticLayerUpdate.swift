/// How a host brings its cached copy of the tiled static layer up to date
/// (`DrawView.staticLayerUpdate(since:)`). Every list is in tile sections:
/// a clip to the tile, then what to paint in it.
public enum StaticLayerUpdate {
  /// Clear the copy and paint every tile.
  case whole(RenderList)
  /// Paint the lines finished since over the tiles they meet.
  case append(RenderList)
  /// Paint these tiles again (each section fills its tile with the
  /// background, then paints the shapes that meet it).
  case repaint([Rect], RenderList)
}
