/// Valid documents and traces the decoders' fuzzing starts from: every field
/// and every kind of event appears at least once.
enum DecoderSeeds {
  static let documents = [
    #"{"format": "touchtracker", "version": 1, "lines": [], "circles": []}"#,
    ##"{"format": "touchtracker", "version": 1,"##
      + ##" "lines": [{"begin": {"x": 10, "y": 20}, "end": {"x": 30, "y": 40}, "color": "#000000", "width": 10},"##
      + ##" {"begin": {"x": -999999999.5, "y": 0.25}, "end": {"x": 1000000000, "y": -7}, "color": "#ff8000", "width": 2.5}],"##
      + ##" "circles": [{"center": {"x": 50, "y": 50}, "radius": 20, "color": "#0050ff", "width": 10}]}"##,
  ]

  static let traces = [
    #"{"events": []}"#,
    """
    {"size": {"width": 800, "height": 600},
     "events": [
       {"time": 0.00, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}]},
       {"time": 0.02, "touches": [{"id": 1, "phase": "moved", "x": 200, "y": 100}]},
       {"time": 0.04, "touches": [{"id": 1, "phase": "ended", "x": 200, "y": 100}]},
       {"time": 1.00, "tap": "Delete"},
       {"time": 1.50, "action": "undo"},
       {"time": 2.00}
     ]}
    """,
    """
    {"events": [
      {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}, {"id": 2, "phase": "began", "x": 300, "y": 200}]},
      {"time": 0.1, "touches": [{"id": 1, "phase": "stationary", "x": 100, "y": 100}, {"id": 2, "phase": "moved", "x": 350, "y": 260}]},
      {"time": 0.2, "touches": [{"id": 1, "phase": "ended", "x": 100, "y": 100}, {"id": 2, "phase": "cancelled", "x": 350, "y": 260}]},
      {"time": 0.5, "action": "redo"}
    ]}
    """,
    """
    {"size": {"width": 390, "height": 844}, "events": [
      {"time": 0, "touches": [{"id": 1, "phase": "began", "x": 100, "y": 100}]},
      {"time": 0.05, "touches": [{"id": 1, "phase": "moved", "x": 300, "y": 100}]},
      {"time": 0.1, "touches": [{"id": 1, "phase": "ended", "x": 300, "y": 100}]},
      {"time": 1, "touches": [{"id": 5, "phase": "began", "x": 200, "y": 101}]},
      {"time": 1.7, "touches": [{"id": 5, "phase": "moved", "x": 250, "y": 150}]},
      {"time": 1.8, "touches": [{"id": 5, "phase": "ended", "x": 250, "y": 150}]}
    ]}
    """,
  ]

  /// Changes as the log keeps them and lists as `POST .../changes` and a
  /// live `changes` message carry them (the page's records, with `bounds`).
  static let changes = [
    ##"{"op":"add","at":3,"lines":[{"id":7,"begin":{"x":1.5,"y":-2},"end":{"x":30,"y":40},"color":"#ff8000","width":10}],"##
      + ##""circles":[{"id":8,"center":{"x":5,"y":6},"radius":2,"color":"#000000","width":1}]}"##,
    #"{"op":"delete","line":12}"#,
    #"{"op":"delete","circle":3}"#,
    #"{"op":"move","line":4,"begin":{"x":1,"y":2},"end":{"x":-3,"y":4e2}}"#,
    #"{"op":"move","circle":9,"center":{"x":0.25,"y":1000000000}}"#,
    #"{"op":"clear","bounds":{"x":0,"y":0,"width":10,"height":20}}"#,
    ##"{"type":"changes","key":"3b1f0c2e-9d4a-4c55-8f00-0123456789ab","changes":[{"op":"add","lines":[{"id":1,"##
      + ##""begin":{"x":1,"y":2},"end":{"x":3,"y":4},"color":"#000000","width":10}],"##
      + ##""bounds":{"x":-4,"y":-3,"width":12,"height":12}},{"op":"clear"}]}"##,
    #"{"changes":[]}"#,
  ]

  static let all = documents + traces
}
