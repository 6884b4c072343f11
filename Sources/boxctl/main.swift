import BoxControl
