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

  static let all = documents + traces
}
