import RxCore

extension Reactive where Base: ImageView {
    /// The image shown.
    public var image: Binder<Image?> {
        Binder(base) { imageView, image in
            imageView.image = image
        }
    }
}
