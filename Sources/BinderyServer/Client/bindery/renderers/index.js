// Registers every built-in renderer. A new widget kind: write renderers/<kind>.js
// (see registry.js for the shape), import and register it here.
import { registerRenderer } from "../registry.js";
import view from "./view.js";
import label from "./label.js";
import button from "./button.js";
import textField from "./textField.js";
import slider from "./slider.js";
import switchRenderer from "./switch.js";
import segmentedControl from "./segmentedControl.js";
import stepper from "./stepper.js";
import datePicker from "./datePicker.js";
import progressView from "./progressView.js";
import activityIndicator from "./activityIndicator.js";
import imageView from "./imageView.js";
import listView from "./listView.js";
import chartView from "./chartView.js";
// Issue 12's kinds (tables, alerts, navigation, more controls, gestures).
import tableView from "./tableView.js";
import alertController from "./alertController.js";
import navigationController from "./navigationController.js";
import barButtonItem from "./barButtonItem.js";
import searchBar from "./searchBar.js";
import textView from "./textView.js";
import pickerView from "./pickerView.js";
import documentPicker from "./documentPicker.js";
import { tapGestureRecognizer, longPressGestureRecognizer } from "./gestureRecognizer.js";
// Issue 12, part two: grids, refresh, pages, swipes and the focus.
import collectionView from "./collectionView.js";
import refreshControl from "./refreshControl.js";
import pageControl from "./pageControl.js";
import swipeGestureRecognizer from "./swipeGestureRecognizer.js";
import stackView from "./stackView.js";
import { withFocus } from "./focus.js";

const builtIn = {
  view, label, button, textField, slider, switch: switchRenderer, segmentedControl, stepper,
  datePicker, progressView, activityIndicator, imageView, listView, documentPicker,
  tableView, alertController, navigationController, barButtonItem, searchBar, textView, pickerView,
  tapGestureRecognizer, longPressGestureRecognizer,
  collectionView, refreshControl, pageControl, swipeGestureRecognizer, stackView,
};
for (const kind of ["textField", "textView", "searchBar"]) builtIn[kind] = withFocus(builtIn[kind]);
for (const [kind, renderer] of Object.entries(builtIn)) registerRenderer(kind, renderer);
registerRenderer("chartView", chartView); // issue 12: charts
