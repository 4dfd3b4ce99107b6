/// The screen: the hypnosis view filling the window and a button that
/// changes the rings' color through target-action.
public final class HypnosisViewController: ViewController {
  /// The colors the button goes through, in order.
  public static let colors: [Color] = [.lightGray, .red, .green, .blue, .orange, .purple]
  /// The index in `colors` of the rings' color.
  public private(set) var colorIndex = 0
  /// The button that changes the color.
  public let colorButton = Button(title: "Color")

  static let nextColor = Action("nextColor:")

  /// The controller's view: the rings.
  public let hypnosisView = HypnosisView(frame: .zero)

  public override func loadView() -> View { hypnosisView }

  public override func viewDidLoad() {
    colorButton.addTarget(self, action: HypnosisViewController.nextColor, for: .touchUpInside)
    view.addSubview(colorButton)
    layout()
  }

  /// Puts the button in the bottom-left corner of the view.
  public func layout() {
    colorButton.frame = Rect(x: 16, y: view.bounds.height - 60, width: 100, height: 44)
  }

  public override func perform(_ action: Action, withSender sender: AnyObject?) {
    guard action == HypnosisViewController.nextColor else { return super.perform(action, withSender: sender) }
    colorIndex = (colorIndex + 1) % HypnosisViewController.colors.count
    hypnosisView.circleColor = HypnosisViewController.colors[colorIndex]
  }

  public override func canPerformAction(_ action: Action, withSender sender: AnyObject?) -> Bool {
    action == HypnosisViewController.nextColor || super.canPerformAction(action, withSender: sender)
  }
}

/// The example as a host runs it: the application, its one screen, and the
/// touches the host reports one finger at a time (`TouchFeed`, the same host
/// layer the drawing app's page uses).
public final class HypnosisApp {
  public let application: Application
  public let controller = HypnosisViewController()
  private var feed = TouchFeed()

  /// The example in a window of `size` points.
  public init(size: Size) {
    application = Application(windowSize: size)
    application.window.rootViewController = controller
    controller.layout()
  }

  /// The window changed size.
  public func resize(to size: Size) {
    application.window.frame = Rect(origin: .zero, size: size)
    controller.view.frame = application.window.bounds
    controller.layout()
  }

  /// One finger's change (`phaseCode`: a `TouchPhase` raw value), delivered at the next `commit(at:)`.
  public func report(id: Int, phaseCode: Int32, location: Point, time: Double) -> TouchFeed.Status {
    feed.report(id: id, phaseCode: phaseCode, location: location, time: time, to: application)
  }

  /// Delivers the fingers reported since the last commit as one event.
  @discardableResult
  public func commit(at time: Double) -> TouchFeed.Status { feed.commit(at: time, to: application) }

  /// Runs the clock to `time` (timers fire).
  public func tick(at time: Double) {
    guard time.isFinite else { return }
    application.advanceClock(to: time)
  }

  /// Why the last report or commit was ignored.
  public var lastError: String { feed.lastError }

  /// Everything on screen, back to front.
  public func render() -> RenderList { application.window.render() }
}
